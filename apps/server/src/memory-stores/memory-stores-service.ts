import type { CreateMemoryStore, MemoryEntry, MemoryStore, UpdateMemoryStore } from "@agent-platform/contract";
import { type Database, Prisma } from "@agent-platform/db";
import type { AppContext } from "../context.js";
import { AppError, notFound } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { enqueueJob } from "../jobs/index.js";
import { embeddingModelOf } from "../knowledge-bases/index.js";
import { byRef } from "../lib/by-ref.js";
import { MEMORY_INDEX_JOB } from "./job-types.js";
import { deleteMemory, listMemoryWithContent, writeMemory } from "./memory-entries.js";
import { toMemoryEntry, toMemoryStore } from "./serialize.js";

/** Stores (of `ids`) with an entry whose vector of the store's embedding space is missing or stale. */
async function storesWithPendingEntries(prisma: Database, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT s."id" FROM memory_stores s WHERE s."id" = ANY(${ids}::text[]) AND EXISTS (
      SELECT 1 FROM memory_entries e WHERE e."storeId" = s."id" AND NOT EXISTS (
        SELECT 1 FROM memory_entry_vectors v WHERE v."storeId" = e."storeId" AND v."key" = e."key"
          AND v."space" = s."embeddingSpace" AND v."sourceUpdatedAt" >= e."updatedAt"))`;
  return new Set(rows.map((r) => r.id));
}

const withEntryCount = { _count: { select: { entries: true } } } as const;

export async function createMemoryStore(
  ctx: AppContext,
  scope: { projectId: string; workspaceId: string },
  input: CreateMemoryStore,
): Promise<MemoryStore> {
  const model = embeddingModelOf(ctx, input.embeddingModel);
  const reference = model.reference as Prisma.InputJsonValue;
  try {
    const row = await ctx.db.prisma.memoryStore.create({
      data: {
        id: newId("memoryStore"),
        projectId: scope.projectId,
        workspaceId: scope.workspaceId,
        name: input.name,
        description: input.description ?? null,
        embeddingModel: reference,
        embeddingSpace: model.space,
        servingModel: reference,
        servingSpace: model.space,
      },
      include: withEntryCount,
    });
    return toMemoryStore(row, false);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError(
        "memory_store.name_taken",
        `A memory store named "${input.name}" already exists in this project`,
      );
    }
    throw error;
  }
}

export async function listMemoryStores(
  prisma: Database,
  projectId: string,
  query: { limit: number; cursor?: string; name?: string },
) {
  const filters = { name: query.name };
  const after = decodeCursor(query.cursor, filters);
  const rows = await prisma.memoryStore.findMany({
    where: {
      projectId,
      ...(query.name !== undefined ? { name: query.name } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    include: withEntryCount,
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  const pending = await storesWithPendingEntries(
    prisma,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows,
    query.limit,
    filters,
    (r) => r.id,
    (r) => toMemoryStore(r, pending.has(r.id)),
  );
}

export async function storeOf(prisma: Database, projectId: string, id: string) {
  const row = await prisma.memoryStore.findFirst({ where: { id, projectId }, include: withEntryCount });
  if (!row) throw notFound("memory_store.not_found", "Memory store", id);
  return row;
}

export async function getMemoryStore(prisma: Database, projectId: string, id: string): Promise<MemoryStore> {
  const row = await storeOf(prisma, projectId, id);
  return toMemoryStore(row, (await storesWithPendingEntries(prisma, [id])).has(id));
}

/**
 * Changes a store's description or embedding model: a new model is embedded in the background while searches keep
 * the current vectors (`servingModel`) until every entry has one of the new model.
 */
export async function updateMemoryStore(
  ctx: AppContext,
  projectId: string,
  id: string,
  input: UpdateMemoryStore,
): Promise<MemoryStore> {
  const prisma = ctx.db.prisma;
  const current = await storeOf(prisma, projectId, id);
  const model = input.embeddingModel !== undefined ? embeddingModelOf(ctx, input.embeddingModel) : null;
  await prisma.memoryStore.updateMany({
    where: { id, projectId },
    data: {
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(model ? { embeddingModel: model.reference as Prisma.InputJsonValue, embeddingSpace: model.space } : {}),
    },
  });
  if (model && model.space !== current.embeddingSpace) await enqueueJob(ctx.db.pool, MEMORY_INDEX_JOB, { key: id });
  return getMemoryStore(prisma, projectId, id);
}

/** Deletes the store and its entries (cascade). Sessions that mounted it then read nothing and cannot write to it. */
export async function deleteMemoryStore(prisma: Database, projectId: string, id: string): Promise<MemoryStore> {
  const row = await storeOf(prisma, projectId, id);
  await prisma.memoryStore.deleteMany({ where: { id, projectId } });
  return toMemoryStore(row, false);
}

export async function listStoreEntries(
  prisma: Database,
  projectId: string,
  id: string,
  query: { limit: number; cursor?: string; prefix?: string },
) {
  const filters = { storeId: id, prefix: query.prefix };
  const afterKey = decodeCursor(query.cursor, filters);
  await storeOf(prisma, projectId, id);
  const rows = await listMemoryWithContent(prisma, id, { prefix: query.prefix, afterKey, limit: query.limit + 1 });
  return pageOf(rows, query.limit, filters, (r) => r.key, toMemoryEntry);
}

export async function putStoreEntry(
  ctx: AppContext,
  projectId: string,
  id: string,
  input: { key: string; content: string },
): Promise<MemoryEntry> {
  await storeOf(ctx.db.prisma, projectId, id);
  return toMemoryEntry(await writeMemory(ctx.db, id, input.key, input.content));
}

export async function deleteStoreEntry(
  prisma: Database,
  projectId: string,
  id: string,
  key: string,
): Promise<MemoryEntry> {
  await storeOf(prisma, projectId, id);
  const deleted = await deleteMemory(prisma, id, key);
  if (!deleted) throw new AppError("memory_entry.not_found", `Memory store ${id} has no entry "${key}"`);
  return toMemoryEntry(deleted);
}

/** Memory stores of the project named by id or name, in one query: each reference found maps to its store. */
export async function findMemoryStoresByRefs(
  prisma: Database,
  projectId: string,
  refs: readonly string[],
): Promise<Map<string, { id: string; name: string }>> {
  if (refs.length === 0) return new Map();
  const rows = await prisma.memoryStore.findMany({
    where: { projectId, OR: [{ id: { in: [...refs] } }, { name: { in: [...refs] } }] },
    select: { id: true, name: true },
  });
  return byRef(rows, refs);
}
