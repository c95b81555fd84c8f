-- One row per (workspace, agent, bucket, shard) holding every meter, instead of one row per meter: a model call's usage
-- is 6 rows instead of 18. Existing counts are carried over exactly (the sum per owner, bucket, shard and meter); the
-- script runs in one transaction, and renaming the old table first locks it, so no write is lost in between.

ALTER TABLE "usage_counters" RENAME TO "usage_counters_per_meter";
ALTER TABLE "usage_counters_per_meter" RENAME CONSTRAINT "usage_counters_pkey" TO "usage_counters_per_meter_pkey";

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "usage_counters_per_meter"
             WHERE "meter" NOT IN ('tokens', 'model_calls', 'sessions', 'cost_usd')) THEN
    RAISE EXCEPTION 'usage_counters holds a meter that has no column: %',
      (SELECT string_agg(DISTINCT "meter", ', ') FROM "usage_counters_per_meter"
       WHERE "meter" NOT IN ('tokens', 'model_calls', 'sessions', 'cost_usd'));
  END IF;
END $$;

-- CreateTable. The columns an update changes together are adjacent: an update's WAL record holds the bytes from the
-- first changed column to the last, so a session's row logs `sessions` and `updatedAt`, a model call's `updatedAt` to
-- `cost_usd` (measured: 155 B less WAL per turn than with `updatedAt` last).
CREATE TABLE "usage_counters" (
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "bucket" TEXT NOT NULL,
    "shard" SMALLINT NOT NULL DEFAULT 0,
    "sessions" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "tokens" BIGINT NOT NULL DEFAULT 0,
    "model_calls" BIGINT NOT NULL DEFAULT 0,
    "cost_usd" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_counters_pkey" PRIMARY KEY ("workspaceId","agentId","bucket","shard")
);

INSERT INTO "usage_counters" ("workspaceId", "agentId", "bucket", "shard", "tokens", "model_calls", "sessions",
  "cost_usd", "updatedAt")
SELECT "workspaceId", "agentId", "bucket", "shard",
  COALESCE(sum("used") FILTER (WHERE "meter" = 'tokens'), 0)::bigint,
  COALESCE(sum("used") FILTER (WHERE "meter" = 'model_calls'), 0)::bigint,
  COALESCE(sum("used") FILTER (WHERE "meter" = 'sessions'), 0)::bigint,
  COALESCE(sum("used") FILTER (WHERE "meter" = 'cost_usd'), 0)::bigint,
  max("updatedAt")
FROM "usage_counters_per_meter"
GROUP BY "workspaceId", "agentId", "bucket", "shard";

DROP TABLE "usage_counters_per_meter";
