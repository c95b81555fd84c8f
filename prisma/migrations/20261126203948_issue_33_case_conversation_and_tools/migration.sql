-- AlterTable
ALTER TABLE "experiment_cases" ADD COLUMN     "conversation" JSONB,
ADD COLUMN     "expectedTools" JSONB;

-- AlterTable
ALTER TABLE "dataset_cases" ADD COLUMN     "expectedTools" JSONB;
