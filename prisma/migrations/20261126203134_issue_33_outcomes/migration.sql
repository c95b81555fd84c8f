-- AlterTable
ALTER TABLE "session_loop_settings" ADD COLUMN     "outcome" JSONB;

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "outcome" JSONB;
