-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "agentVersion" INTEGER NOT NULL,
    "title" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'idle',
    "stopReason" TEXT,
    "pendingActions" JSONB NOT NULL DEFAULT '[]',
    "environmentId" TEXT,
    "vaultIds" TEXT[],
    "resources" JSONB NOT NULL DEFAULT '[]',
    "parentSessionId" TEXT,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" TIMESTAMPTZ(3),

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session_events" (
    "sessionId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "idempotencyKey" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_events_pkey" PRIMARY KEY ("sessionId","seq")
);

-- CreateIndex
CREATE INDEX "sessions_projectId_id_idx" ON "sessions"("projectId", "id");

-- CreateIndex
CREATE INDEX "sessions_projectId_agentId_id_idx" ON "sessions"("projectId", "agentId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "session_events_id_key" ON "session_events"("id");

-- CreateIndex
CREATE UNIQUE INDEX "session_events_sessionId_idempotencyKey_key" ON "session_events"("sessionId", "idempotencyKey");

-- AddForeignKey
ALTER TABLE "session_events" ADD CONSTRAINT "session_events_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Filter sessions by metadata containment (metadata[key]=value).
CREATE INDEX "sessions_metadata_gin" ON "sessions" USING GIN ("metadata" jsonb_path_ops);

-- Wake listeners (SSE followers, the worker) when a session's log grows; delivered at commit.
CREATE FUNCTION "notify_session_events"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN SELECT "sessionId", max("seq") AS "seq" FROM new_rows GROUP BY "sessionId" LOOP
    PERFORM pg_notify('session_events', r."sessionId" || ':' || r."seq");
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER "session_events_notify" AFTER INSERT ON "session_events"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_session_events"();
