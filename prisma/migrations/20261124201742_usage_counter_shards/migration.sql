-- AlterTable
ALTER TABLE "usage_counters" DROP CONSTRAINT "usage_counters_pkey",
ADD COLUMN     "shard" SMALLINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "usage_counters_pkey" PRIMARY KEY ("workspaceId", "agentId", "meter", "bucket", "shard");
