-- AlterTable
ALTER TABLE "artifacts" ADD COLUMN     "data" BYTEA;
