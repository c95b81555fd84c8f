import type { CreateMemoryStore, MemoryEntry, MemoryStore } from "@agent-platform/contract";
import { type Database, Prisma } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { byRef } from "../lib/by-ref.js";
import { deleteMemory, listMemoryWithContent, writeMemory } from "./memory-entries.js";
import { toMemoryEntry, toMemoryStore } from "./serialize.js";

const withEntryCount = { _count: { select: { entries: true } } } as const;

export async function createMemoryStore(
  prisma: Database,
  projectId: string,
  input: CreateMemoryStore,
): Promise<MemoryStore> {
  try {
    const row = await prisma.memoryStore.create({
      data: { id: newId("memoryStore"), projectId, name: input.name, description: input.description ?? null },
      include: withEntryCount,
    });
    return toMemoryStore(row);
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
  return pageOf(rows, query.limit, filters, (r) => r.id, toMemoryStore);
}

async function storeOf(prisma: Database, projectId: string, id: string) {
  const row = await prisma.memoryStore.findFirst({ where: { id, projectId }, include: withEntryCount });
  if (!row) throw notFound("memory_store.not_found", "Memory store", id);
  return row;
}

export async function getMemoryStore(prisma: Database, projectId: string, id: string): Promise<MemoryStore> {
  return toMemoryStore(await storeOf(prisma, projectId, id));
}

/** Deletes the store and its entries (cascade). Sessions that mounted it then read nothing and cannot write to it. */
export async function deleteMemoryStore(prisma: Database, projectId: string, id: string): Promise<MemoryStore> {
  const row = await storeOf(prisma, projectId, id);
  await prisma.memoryStore.deleteMany({ where: { id, projectId } });
  return toMemoryStore(row);
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
  prisma: Database,
  projectId: string,
  id: string,
  input: { key: string; content: string },
): Promise<MemoryEntry> {
  await storeOf(prisma, projectId, id);
  return toMemoryEntry(await writeMemory(prisma, id, input.key, input.content));
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

/** Resolves a memory store reference (`ms_…` id or unique name) in the project; null when there is none. */
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
