-- AlterTable
ALTER TABLE "automations" ADD COLUMN     "outcome" JSONB;
