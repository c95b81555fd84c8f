-- DropIndex
DROP INDEX "experiments_projectId_datasetId_id_idx";

-- DropIndex
DROP INDEX "sessions_projectId_agentId_id_idx";

-- CreateIndex
CREATE INDEX "experiments_datasetId_id_idx" ON "experiments"("datasetId", "id");

-- CreateIndex
CREATE INDEX "sessions_agentId_id_idx" ON "sessions"("agentId", "id");
