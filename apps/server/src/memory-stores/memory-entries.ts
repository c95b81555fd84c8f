import { LIMITS, MemoryKeySchema, utf8Bytes } from "@agent-platform/contract";
import { type Database, type DatabaseHandle, Prisma } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { escapeLike } from "../http/list-filters.js";
import { enqueueJob } from "../jobs/index.js";
import { inTransaction } from "../lib/transaction.js";
import { MEMORY_INDEX_JOB } from "./job-types.js";

// The functions the runtime's memory tools call. They take an already resolved store id (sessions resolve their memory
// mounts at creation) and validate keys and sizes themselves, since their input comes from a model.

export interface MemoryEntryInfo {
  key: string;
  bytes: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface MemoryEntryRecord extends MemoryEntryInfo {
  content: string;
}

export interface MemorySearchHit {
  key: string;
  /** Up to ~240 characters of content around the first match (or its beginning when only the key matched). */
  snippet: string;
  bytes: number;
  updatedAt: Date;
}

export interface ListMemoryOptions {
  /** Only keys starting with this text. */
  prefix?: string;
  /** Only keys after this one (key order), to page. */
  afterKey?: string;
  /** At most this many entries (default 100, capped at 1000). */
  limit?: number;
}

const SNIPPET_CHARS = 240;

function checkKey(key: string): void {
  const parsed = MemoryKeySchema.safeParse(key);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "invalid key";
    throw new AppError("request.invalid", `Invalid memory key "${key.slice(0, 100)}": ${message}`, {
      issues: [{ path: "key", message }],
    });
  }
}

function keyRange(options: ListMemoryOptions): Prisma.Sql {
  return Prisma.sql`${options.prefix ? Prisma.sql`AND starts_with("key", ${options.prefix})` : Prisma.empty}
    ${options.afterKey !== undefined ? Prisma.sql`AND "key" > ${options.afterKey}` : Prisma.empty}`;
}

function pageSize(limit: number | undefined): number {
  return Math.min(Math.max(limit ?? 100, 1), 1000);
}

export async function readMemory(prisma: Database, storeId: string, key: string): Promise<MemoryEntryRecord | null> {
  checkKey(key);
  const row = await prisma.memoryEntry.findUnique({ where: { storeId_key: { storeId, key } } });
  return row ? { ...row, bytes: utf8Bytes(row.content) } : null;
}

/**
 * Creates or replaces the entry, and asks the store's background job for its vector in the same transaction. A store
 * deleted meanwhile is a `memory_store.not_found`.
 */
export async function writeMemory(
  db: Pick<DatabaseHandle, "pool">,
  storeId: string,
  key: string,
  content: string,
): Promise<MemoryEntryRecord> {
  checkKey(key);
  const bytes = utf8Bytes(content);
  if (bytes > LIMITS.memoryEntryBytes) {
    const message = `at most ${LIMITS.memoryEntryBytes} bytes (UTF-8), got ${bytes}`;
    throw new AppError("request.invalid", `Memory entry too large: ${message}`, {
      issues: [{ path: "content", message }],
    });
  }
  try {
    return await inTransaction(db.pool, async (client) => {
      // The job row first, as the embedding run's fence takes it (one lock order: no deadlock).
      await enqueueJob(client, MEMORY_INDEX_JOB, { key: storeId });
      const { rows } = await client.query<Omit<MemoryEntryRecord, "bytes">>(
        `INSERT INTO memory_entries ("storeId", "key", "content", "createdAt", "updatedAt")
         VALUES ($1, $2, $3, now(), now())
         ON CONFLICT ("storeId", "key") DO UPDATE SET "content" = EXCLUDED."content", "updatedAt" = now()
         RETURNING "key", "content", "createdAt", "updatedAt"`,
        [storeId, key, content],
      );
      return { ...rows[0]!, bytes };
    });
  } catch (error) {
    if ((error as { code?: string }).code === "23503")
      throw notFound("memory_store.not_found", "Memory store", storeId);
    throw error;
  }
}

/** Deletes the entry; returns it as it was, or null when there was none. */
export async function deleteMemory(prisma: Database, storeId: string, key: string): Promise<MemoryEntryRecord | null> {
  checkKey(key);
  const rows = await prisma.$queryRaw<Omit<MemoryEntryRecord, "bytes">[]>`
    DELETE FROM memory_entries WHERE "storeId" = ${storeId} AND "key" = ${key}
    RETURNING "key", "content", "createdAt", "updatedAt"`;
  const row = rows[0];
  return row ? { ...row, bytes: utf8Bytes(row.content) } : null;
}

/** Keys with their sizes, in key order, without the contents. */
export async function listMemory(
  prisma: Database,
  storeId: string,
  options: ListMemoryOptions = {},
): Promise<MemoryEntryInfo[]> {
  return prisma.$queryRaw<MemoryEntryInfo[]>`
    SELECT "key", octet_length("content")::int AS "bytes", "createdAt", "updatedAt"
    FROM memory_entries WHERE "storeId" = ${storeId} ${keyRange(options)}
    ORDER BY "key" LIMIT ${pageSize(options.limit)}`;
}

/** Entries with their contents, in key order (the HTTP listing). */
export async function listMemoryWithContent(
  prisma: Database,
  storeId: string,
  options: ListMemoryOptions = {},
): Promise<MemoryEntryRecord[]> {
  return prisma.$queryRaw<MemoryEntryRecord[]>`
    SELECT "key", "content", octet_length("content")::int AS "bytes", "createdAt", "updatedAt"
    FROM memory_entries WHERE "storeId" = ${storeId} ${keyRange(options)}
    ORDER BY "key" LIMIT ${pageSize(options.limit)}`;
}

/**
 * Entries whose key or content contains every word of `query` (case-insensitive, literal: `%` and `_` match
 * themselves), most recently updated first.
 */
export async function searchMemory(
  prisma: Database,
  storeId: string,
  query: string,
  limit = 10,
): Promise<MemorySearchHit[]> {
  const terms = query.trim().split(/\s+/).filter(Boolean).slice(0, 16);
  if (terms.length === 0) return [];
  const conditions = terms.map((term) => {
    const pattern = `%${escapeLike(term)}%`;
    return Prisma.sql`("key" ILIKE ${pattern} ESCAPE '\\' OR "content" ILIKE ${pattern} ESCAPE '\\')`;
  });
  const rows = await prisma.$queryRaw<{ key: string; content: string; updatedAt: Date }[]>`
    SELECT "key", "content", "updatedAt" FROM memory_entries
    WHERE "storeId" = ${storeId} AND ${Prisma.join(conditions, " AND ")}
    ORDER BY "updatedAt" DESC, "key" LIMIT ${Math.min(Math.max(limit, 1), LIMITS.memorySearchResults)}`;
  return rows.map((row) => ({
    key: row.key,
    snippet: snippetOf(row.content, terms),
    bytes: utf8Bytes(row.content),
    updatedAt: row.updatedAt,
  }));
}

function snippetOf(content: string, terms: string[]): string {
  const lower = content.toLowerCase();
  const hits = terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0);
  const at = hits.length > 0 ? Math.min(...hits) : 0;
  const start = Math.max(0, at - SNIPPET_CHARS / 3);
  const end = Math.min(content.length, start + SNIPPET_CHARS);
  return `${start > 0 ? "…" : ""}${content.slice(start, end)}${end < content.length ? "…" : ""}`;
}
