import type { EmbeddingModelRef, MemoryEntry, MemoryStore } from "@agent-platform/contract";
import type { MemoryStore as MemoryStoreRow } from "@agent-platform/db";
import type { MemoryEntryRecord } from "./memory-entries.js";

export function toMemoryStore(
  row: MemoryStoreRow & { _count: { entries: number } },
  pendingEntries: boolean,
): MemoryStore {
  const status = row.servingSpace !== row.embeddingSpace ? "reembedding" : pendingEntries ? "embedding" : "ready";
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    description: row.description,
    entryCount: row._count.entries,
    embeddingModel: row.embeddingModel as EmbeddingModelRef,
    embedding: { status, servingModel: row.servingModel as EmbeddingModelRef },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toMemoryEntry(row: MemoryEntryRecord): MemoryEntry {
  return {
    key: row.key,
    content: row.content,
    bytes: row.bytes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
