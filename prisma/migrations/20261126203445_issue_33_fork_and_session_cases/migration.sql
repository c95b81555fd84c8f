-- DropIndex
DROP INDEX "session_events_id_key";

-- AlterTable
ALTER TABLE "dataset_cases" ADD COLUMN     "conversation" JSONB;

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "forkedFromSeq" INTEGER,
ADD COLUMN     "forkedFromSessionId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "session_events_sessionId_id_key" ON "session_events"("sessionId", "id");
