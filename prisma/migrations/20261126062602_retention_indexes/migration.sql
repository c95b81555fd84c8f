-- CreateIndex
CREATE INDEX "automation_runs_createdAt_idx" ON "automation_runs"("createdAt");

-- CreateIndex
CREATE INDEX "webhook_deliveries_finishedAt_idx" ON "webhook_deliveries"("finishedAt");
