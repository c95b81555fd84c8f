-- A lookup by project and id could take (projectId, agentId, id) and read every index entry of the project; the
-- by-agent and by-dataset lists are served by (agentId, id) and (datasetId, id). IF [NOT] EXISTS: an operator with a
-- large sessions table can build the new indexes first with CREATE INDEX CONCURRENTLY (docs/operating.md, Upgrading),
-- so this migration does not hold session writes for the build.

-- DropIndex
DROP INDEX IF EXISTS "experiments_projectId_datasetId_id_idx";

-- DropIndex
DROP INDEX IF EXISTS "sessions_projectId_agentId_id_idx";

-- CreateIndex
CREATE INDEX IF NOT EXISTS "experiments_datasetId_id_idx" ON "experiments"("datasetId", "id");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "sessions_agentId_id_idx" ON "sessions"("agentId", "id");
