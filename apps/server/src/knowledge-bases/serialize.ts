import type { KnowledgeBase, KnowledgeDocument, KnowledgeDocumentSummary } from "@agent-platform/contract";
import type { KnowledgeBase as KnowledgeBaseRow, KnowledgeDocument as KnowledgeDocumentRow } from "@agent-platform/db";

export function toKnowledgeBase(row: KnowledgeBaseRow & { _count: { documents: number } }): KnowledgeBase {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    description: row.description,
    documentCount: row._count.documents,
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
    createdAt: row.createdAt.toISOString(),
  };
}

export function toDocument(row: KnowledgeDocumentRow): KnowledgeDocument {
  return { ...toDocumentSummary(row), content: row.content };
}
