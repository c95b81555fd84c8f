-- One row per (workspace, agent, shard) holding, per meter, the total and the counts of the row's current month and
-- day, instead of a row per (workspace, agent, bucket, shard): a write is 2 rows instead of 6. The counters keep only
-- the current periods (budgets read nothing else; usage history is served from the session logs).
-- Carried over per (workspace, agent, shard), "current" being UTC at this transaction's start: the total from bucket
-- 'total', the month's count from the current month's bucket, the day's from today's. Past months' and days' buckets
-- are dropped (their count is told by a NOTICE), and so are buckets of a period after the current one (written by a
-- server whose clock ran ahead): their usage is in the total already, and a start must not fail on them. A bucket
-- that is no period at all cannot be carried over: the migration then fails and names it. The script runs in one
-- transaction, and renaming the old table first locks it, so no write is lost in between.

ALTER TABLE "usage_counters" RENAME TO "usage_counters_by_bucket";
ALTER TABLE "usage_counters_by_bucket" RENAME CONSTRAINT "usage_counters_pkey" TO "usage_counters_by_bucket_pkey";

DO $$
DECLARE
  this_month TEXT := to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM');
  today TEXT := to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD');
  found TEXT;
  past BIGINT;
BEGIN
  SELECT string_agg(DISTINCT "bucket", ', ') INTO found FROM "usage_counters_by_bucket"
  WHERE "bucket" <> 'total' AND "bucket" !~ '^[0-9]{4}-[0-9]{2}$' AND "bucket" !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
  IF found IS NOT NULL THEN
    RAISE EXCEPTION 'usage_counters holds buckets that are no period: %', found;
  END IF;
  SELECT string_agg(DISTINCT "bucket", ', ') INTO found FROM "usage_counters_by_bucket"
  WHERE ("bucket" ~ '^[0-9]{4}-[0-9]{2}$' AND "bucket" > this_month)
     OR ("bucket" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' AND "bucket" > today);
  IF found IS NOT NULL THEN
    RAISE NOTICE 'usage_counters: buckets after the current period (today is % UTC) dropped, their usage counted in the total only: %',
      today, found;
  END IF;
  SELECT count(*) INTO past FROM "usage_counters_by_bucket" WHERE "bucket" NOT IN ('total', this_month, today);
  RAISE NOTICE 'usage_counters: % rows of other months and days dropped (history is in the session logs)', past;
END $$;

-- CreateTable. The columns an update changes together are adjacent: an update's WAL record holds the bytes from the
-- first changed column to the last, so a session's creation logs the `sessions_*` columns and `updatedAt`, a model
-- call `updatedAt` to `model_calls_day`, and the `cost_usd_*` columns only when the call has a cost. `month` and
-- `day` change only when a row enters a new period (then every meter's month or day count does too).
CREATE TABLE "usage_counters" (
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "shard" SMALLINT NOT NULL DEFAULT 0,
    "month" DATE NOT NULL,
    "day" DATE NOT NULL,
    "sessions_total" BIGINT NOT NULL DEFAULT 0,
    "sessions_month" BIGINT NOT NULL DEFAULT 0,
    "sessions_day" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "tokens_total" BIGINT NOT NULL DEFAULT 0,
    "tokens_month" BIGINT NOT NULL DEFAULT 0,
    "tokens_day" BIGINT NOT NULL DEFAULT 0,
    "model_calls_total" BIGINT NOT NULL DEFAULT 0,
    "model_calls_month" BIGINT NOT NULL DEFAULT 0,
    "model_calls_day" BIGINT NOT NULL DEFAULT 0,
    "cost_usd_total" BIGINT NOT NULL DEFAULT 0,
    "cost_usd_month" BIGINT NOT NULL DEFAULT 0,
    "cost_usd_day" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_counters_pkey" PRIMARY KEY ("workspaceId","agentId","shard")
);

INSERT INTO "usage_counters" ("workspaceId", "agentId", "shard", "month", "day",
  "sessions_total", "sessions_month", "sessions_day", "updatedAt",
  "tokens_total", "tokens_month", "tokens_day", "model_calls_total", "model_calls_month", "model_calls_day",
  "cost_usd_total", "cost_usd_month", "cost_usd_day")
SELECT c."workspaceId", c."agentId", c."shard",
  date_trunc('month', now() AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date,
  COALESCE(sum(c."sessions") FILTER (WHERE c."bucket" = 'total'), 0),
  COALESCE(sum(c."sessions") FILTER (WHERE c."bucket" = p."month"), 0),
  COALESCE(sum(c."sessions") FILTER (WHERE c."bucket" = p."day"), 0),
  max(c."updatedAt"),
  COALESCE(sum(c."tokens") FILTER (WHERE c."bucket" = 'total'), 0),
  COALESCE(sum(c."tokens") FILTER (WHERE c."bucket" = p."month"), 0),
  COALESCE(sum(c."tokens") FILTER (WHERE c."bucket" = p."day"), 0),
  COALESCE(sum(c."model_calls") FILTER (WHERE c."bucket" = 'total'), 0),
  COALESCE(sum(c."model_calls") FILTER (WHERE c."bucket" = p."month"), 0),
  COALESCE(sum(c."model_calls") FILTER (WHERE c."bucket" = p."day"), 0),
  COALESCE(sum(c."cost_usd") FILTER (WHERE c."bucket" = 'total'), 0),
  COALESCE(sum(c."cost_usd") FILTER (WHERE c."bucket" = p."month"), 0),
  COALESCE(sum(c."cost_usd") FILTER (WHERE c."bucket" = p."day"), 0)
FROM "usage_counters_by_bucket" c
CROSS JOIN (SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM') AS "month",
  to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "day") p
WHERE c."bucket" IN ('total', p."month", p."day")
GROUP BY c."workspaceId", c."agentId", c."shard";

DROP TABLE "usage_counters_by_bucket";
