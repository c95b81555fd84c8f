-- CreateTable
CREATE TABLE "automations" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "agentId" TEXT NOT NULL,
    "agentVersion" INTEGER,
    "prompt" TEXT NOT NULL,
    "triggerType" TEXT NOT NULL,
    "cron" TEXT,
    "timezone" TEXT,
    "overlap" TEXT,
    "jitterSeconds" INTEGER,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "environmentId" TEXT,
    "vaultIds" TEXT[],
    "resources" JSONB NOT NULL DEFAULT '[]',
    "nextFireAt" TIMESTAMPTZ(3),
    "queuedFireAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "automations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "automation_runs" (
    "id" TEXT NOT NULL,
    "automationId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "triggerKind" TEXT NOT NULL,
    "scheduledFor" TIMESTAMPTZ(3),
    "status" TEXT NOT NULL,
    "sessionId" TEXT,
    "error" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "automation_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "automations_projectId_id_idx" ON "automations"("projectId", "id");

-- CreateIndex
CREATE INDEX "automation_runs_automationId_id_idx" ON "automation_runs"("automationId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "automation_runs_automationId_scheduledFor_key" ON "automation_runs"("automationId", "scheduledFor");

-- AddForeignKey
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_automationId_fkey" FOREIGN KEY ("automationId") REFERENCES "automations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
