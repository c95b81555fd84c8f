-- CreateTable
CREATE TABLE "session_runs" (
    "sessionId" TEXT NOT NULL,
    "requestedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "generation" BIGINT NOT NULL DEFAULT 1,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "session_runs_pkey" PRIMARY KEY ("sessionId")
);

-- CreateTable
CREATE TABLE "session_loop_settings" (
    "sessionId" TEXT NOT NULL,
    "operator" BOOLEAN NOT NULL DEFAULT true,
    "maxModelCalls" INTEGER,
    "readonly" BOOLEAN NOT NULL DEFAULT false,
    "model" JSONB,
    "delegatedBy" TEXT,

    CONSTRAINT "session_loop_settings_pkey" PRIMARY KEY ("sessionId")
);

-- CreateIndex
CREATE INDEX "session_runs_leaseExpiresAt_idx" ON "session_runs"("leaseExpiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "session_loop_settings_delegatedBy_key" ON "session_loop_settings"("delegatedBy");

-- Hand-written: both tables follow their session (Prisma would need a back-relation field on Session for this).
ALTER TABLE "session_runs" ADD CONSTRAINT "session_runs_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "session_loop_settings" ADD CONSTRAINT "session_loop_settings_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
