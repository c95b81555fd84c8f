-- AlterTable
ALTER TABLE "environments" ADD COLUMN     "networking" JSONB NOT NULL DEFAULT '{"type":"none"}',
ADD COLUMN     "packages" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "resources" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "secrets" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "session_workspaces" (
    "sessionId" TEXT NOT NULL,
    "generation" INTEGER NOT NULL,
    "snapshot" BYTEA NOT NULL,
    "bytes" INTEGER NOT NULL,
    "files" INTEGER NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_workspaces_pkey" PRIMARY KEY ("sessionId")
);

-- A session's workspace goes with it (the Session model lives in sessions.prisma).
ALTER TABLE "session_workspaces" ADD CONSTRAINT "session_workspaces_sessionId_fkey"
  FOREIGN KEY ("sessionId") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
