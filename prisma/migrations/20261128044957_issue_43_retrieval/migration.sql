-- AlterTable
ALTER TABLE "memory_stores" ADD COLUMN     "embeddingModel" JSONB NOT NULL DEFAULT '"builtin/hash-ngrams"',
ADD COLUMN     "embeddingSpace" TEXT NOT NULL DEFAULT 'builtin/hash-ngrams',
ADD COLUMN     "servingModel" JSONB NOT NULL DEFAULT '"builtin/hash-ngrams"',
ADD COLUMN     "servingSpace" TEXT NOT NULL DEFAULT 'builtin/hash-ngrams',
ADD COLUMN     "workspaceId" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "knowledge_bases" ADD COLUMN     "chunkMaxTokens" INTEGER NOT NULL DEFAULT 400,
ADD COLUMN     "chunkOverlapTokens" INTEGER NOT NULL DEFAULT 80,
ADD COLUMN     "embeddingModel" JSONB NOT NULL DEFAULT '"builtin/hash-ngrams"',
ADD COLUMN     "embeddingSpace" TEXT NOT NULL DEFAULT 'builtin/hash-ngrams',
ADD COLUMN     "servingModel" JSONB NOT NULL DEFAULT '"builtin/hash-ngrams"',
ADD COLUMN     "servingSpace" TEXT NOT NULL DEFAULT 'builtin/hash-ngrams',
ADD COLUMN     "workspaceId" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "knowledge_documents" ADD COLUMN     "chunkCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "contentType" TEXT NOT NULL DEFAULT 'text',
ADD COLUMN     "embeddedChunks" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "embeddingCostMicroUsd" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "embeddingTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "error" TEXT,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'pending',
ADD COLUMN     "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "memory_entry_vectors" (
    "storeId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "space" TEXT NOT NULL,
    "vector" BYTEA NOT NULL,
    "sourceUpdatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "memory_entry_vectors_pkey" PRIMARY KEY ("storeId","space","key")
);

-- CreateTable
CREATE TABLE "knowledge_chunks" (
    "id" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "knowledgeBaseId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "headingPath" TEXT[],
    "context" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "startOffset" INTEGER NOT NULL,
    "endOffset" INTEGER NOT NULL,

    CONSTRAINT "knowledge_chunks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "knowledge_chunk_vectors" (
    "chunkId" TEXT NOT NULL,
    "space" TEXT NOT NULL,
    "knowledgeBaseId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "vector" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "knowledge_chunk_vectors_pkey" PRIMARY KEY ("chunkId","space")
);

-- CreateIndex
CREATE INDEX "knowledge_chunks_knowledgeBaseId_idx" ON "knowledge_chunks"("knowledgeBaseId");

-- CreateIndex
CREATE UNIQUE INDEX "knowledge_chunks_documentId_position_key" ON "knowledge_chunks"("documentId", "position");

-- CreateIndex
CREATE INDEX "knowledge_chunk_vectors_knowledgeBaseId_space_idx" ON "knowledge_chunk_vectors"("knowledgeBaseId", "space");

-- AddForeignKey
ALTER TABLE "memory_entry_vectors" ADD CONSTRAINT "memory_entry_vectors_storeId_key_fkey" FOREIGN KEY ("storeId", "key") REFERENCES "memory_entries"("storeId", "key") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "knowledge_documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "knowledge_chunk_vectors" ADD CONSTRAINT "knowledge_chunk_vectors_chunkId_fkey" FOREIGN KEY ("chunkId") REFERENCES "knowledge_chunks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (Prisma cannot express them) ------------------------------------------------------------------------

-- Full-text search runs on chunks now: searchChunksFullText() must use exactly this expression for the planner to pick
-- the index. The document-level index is no longer read.
CREATE INDEX "knowledge_chunks_fts_idx" ON "knowledge_chunks"
  USING GIN (to_tsvector('simple'::regconfig, "context" || ' ' || "content"));
DROP INDEX IF EXISTS "knowledge_documents_fts_idx";

-- Documents stored before chunks existed are split and embedded by the knowledge bases' background job (one per base,
-- key = base id), and memory entries by the memory stores' (key = store id): queue them once here.
INSERT INTO "jobs" ("kind", "key")
  SELECT DISTINCT 'knowledge.index', "knowledgeBaseId" FROM "knowledge_documents"
  ON CONFLICT DO NOTHING;
INSERT INTO "jobs" ("kind", "key")
  SELECT DISTINCT 'memory.index', "storeId" FROM "memory_entries"
  ON CONFLICT DO NOTHING;

-- The workspace of existing bases and stores, from their project.
UPDATE "knowledge_bases" kb SET "workspaceId" = p."workspaceId" FROM "projects" p WHERE p."id" = kb."projectId";
UPDATE "memory_stores" ms SET "workspaceId" = p."workspaceId" FROM "projects" p WHERE p."id" = ms."projectId";
