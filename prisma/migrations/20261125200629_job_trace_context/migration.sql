-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "traceparent" TEXT;
