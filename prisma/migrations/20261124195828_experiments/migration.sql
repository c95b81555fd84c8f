-- CreateTable
CREATE TABLE "experiments" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "task" JSONB NOT NULL,
    "scorers" JSONB NOT NULL,
    "concurrency" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "caseCount" INTEGER NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "errored" INTEGER NOT NULL DEFAULT 0,
    "totals" JSONB,
    "error" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "experiments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "experiment_cases" (
    "experimentId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "caseId" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "expected" TEXT,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "output" TEXT,
    "scores" JSONB NOT NULL DEFAULT '[]',
    "latencyMs" INTEGER,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "judgeInputTokens" INTEGER NOT NULL DEFAULT 0,
    "judgeOutputTokens" INTEGER NOT NULL DEFAULT 0,
    "costUsd" DOUBLE PRECISION,
    "error" TEXT,
    "sessionId" TEXT,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "experiment_cases_pkey" PRIMARY KEY ("experimentId","position")
);

-- CreateIndex
CREATE INDEX "experiments_projectId_id_idx" ON "experiments"("projectId", "id");

-- CreateIndex
CREATE INDEX "experiments_projectId_datasetId_id_idx" ON "experiments"("projectId", "datasetId", "id");

-- CreateIndex
CREATE INDEX "experiment_cases_experimentId_state_position_idx" ON "experiment_cases"("experimentId", "state", "position");

-- AddForeignKey
ALTER TABLE "experiment_cases" ADD CONSTRAINT "experiment_cases_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "experiments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
