-- AlterTable
ALTER TABLE "session_loop_settings" ADD COLUMN     "guardrails" JSONB;

-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "screensInput" BOOLEAN NOT NULL DEFAULT false;
