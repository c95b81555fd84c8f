-- AlterTable (backfilled, so existing documents keep their size)
ALTER TABLE "knowledge_documents" ADD COLUMN     "bytes" INTEGER NOT NULL DEFAULT 0;
UPDATE "knowledge_documents" SET "bytes" = octet_length("content");
ALTER TABLE "knowledge_documents" ALTER COLUMN "bytes" DROP DEFAULT;

-- CreateTable
CREATE TABLE "memory_entries" (
    "storeId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_entries_pkey" PRIMARY KEY ("storeId","key")
);

-- AddForeignKey
ALTER TABLE "memory_entries" ADD CONSTRAINT "memory_entries_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "memory_stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Full-text search over knowledge documents (written by hand: Prisma cannot express expression indexes).
-- searchKnowledge() must use exactly this expression for the planner to pick the index.
CREATE INDEX "knowledge_documents_fts_idx" ON "knowledge_documents"
  USING GIN (to_tsvector('simple'::regconfig, "title" || ' ' || "content"));
