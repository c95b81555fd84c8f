-- CreateTable
CREATE TABLE "jobs" (
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "dueAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "generation" BIGINT NOT NULL DEFAULT 1,
    "leaseOwner" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("kind","key")
);

-- CreateIndex
CREATE INDEX "jobs_kind_dueAt_idx" ON "jobs"("kind", "dueAt");

-- Hand-written: pending session work moves to the general queue as jobs of kind `session.turn` (key: the session id).
-- A claimed row keeps its owner and lease; a free row with a retry delay keeps it as its due time.
INSERT INTO "jobs" ("kind", "key", "dueAt", "generation", "leaseOwner", "attempts", "createdAt")
SELECT 'session.turn', "sessionId", COALESCE("leaseExpiresAt", "requestedAt"), "generation", "leaseOwner", "attempts",
  "requestedAt"
FROM "session_runs";

-- DropTable
DROP TABLE "session_runs";

-- Hand-written: a session's pending turn goes with the session (the jobs table holds every kind, so no foreign key).
CREATE FUNCTION "sessions_drop_turn_job"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "jobs" WHERE "kind" = 'session.turn' AND "key" = OLD."id";
  RETURN OLD;
END;
$$;
CREATE TRIGGER "sessions_drop_turn_job" AFTER DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "sessions_drop_turn_job"();
