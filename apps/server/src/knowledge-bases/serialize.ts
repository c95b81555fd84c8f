import type {
  EmbeddingModelRef,
  KnowledgeBase,
  KnowledgeChunk,
  KnowledgeDocument,
  KnowledgeDocumentSummary,
} from "@agent-platform/contract";
import type { KnowledgeBase as KnowledgeBaseRow, KnowledgeDocument as KnowledgeDocumentRow } from "@agent-platform/db";
import { MICRO_USD_PER_USD } from "../budgets/index.js";

export type KnowledgeBaseWithCounts = KnowledgeBaseRow & { _count: { documents: number }; pendingDocuments: number };

export function toKnowledgeBase(row: KnowledgeBaseWithCounts): KnowledgeBase {
  const status =
    row.servingSpace !== row.embeddingSpace ? "reembedding" : row.pendingDocuments > 0 ? "embedding" : "ready";
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    description: row.description,
    documentCount: row._count.documents,
    embeddingModel: row.embeddingModel as EmbeddingModelRef,
    embedding: { status, servingModel: row.servingModel as EmbeddingModelRef },
    chunking: { maxTokens: row.chunkMaxTokens, overlapTokens: row.chunkOverlapTokens },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toDocumentSummary(row: Omit<KnowledgeDocumentRow, "content">): KnowledgeDocumentSummary {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledgeBaseId,
    title: row.title,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    bytes: row.bytes,
    contentType: row.contentType as KnowledgeDocumentSummary["contentType"],
    status: row.status as KnowledgeDocumentSummary["status"],
    chunkCount: row.chunkCount,
    embeddedChunks: row.embeddedChunks,
    error: row.error,
    embeddingUsage: {
      inputTokens: row.embeddingTokens,
      costUsd: Number(row.embeddingCostMicroUsd) / MICRO_USD_PER_USD,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toDocument(row: KnowledgeDocumentRow): KnowledgeDocument {
  return { ...toDocumentSummary(row), content: row.content };
}

export function toChunk(row: {
  id: string;
  documentId: string;
  position: number;
  headingPath: string[] | null;
  startOffset: number;
  endOffset: number;
  content: string;
}): KnowledgeChunk {
  return {
    id: row.id,
    documentId: row.documentId,
    position: row.position,
    headingPath: row.headingPath ?? [],
    startOffset: row.startOffset,
    endOffset: row.endOffset,
    text: row.content,
  };
}
