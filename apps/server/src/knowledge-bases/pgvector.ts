import { createHash } from "node:crypto";
import type pg from "pg";
import type { Logger } from "pino";
import { bytesToVector, vectorLiteral } from "../retrieval/index.js";

/** What runs a statement: a pool, a client, or anything with pg's `query` (PGlite's, in tests). */
export type Queryable = Pick<pg.Pool, "query">;

export type VectorBackend =
  | { kind: "pgvector"; version: string; iterativeScan: boolean }
  | { kind: "exact"; reason: string };

// pgvector indexes `vector` up to 2,000 dimensions and `halfvec` up to 4,000 (pgvector README, "HNSW"): longer
// vectors (none of the catalogue's) are searched by pgvector's exact scan, without an index.
const VECTOR_INDEX_MAX = 2_000;
const HALFVEC_INDEX_MAX = 4_000;

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split(".").map(Number);
  return a > major || (a === major && b >= minor);
}

/**
 * Whether the server has pgvector, and makes it usable: the extension is created when it is available but not yet
 * created (a role that may not create it leaves the exact scan), then `knowledge_chunk_vectors` gets its `vec vector`
 * column (kept beside the float32 bytes, which stay the source) and rows stored before get theirs. `mode` `exact`
 * (`KNOWLEDGE_VECTOR_BACKEND=exact`) skips all of it.
 */
export async function detectVectorBackend(
  db: Queryable,
  logger: Pick<Logger, "info" | "warn">,
  mode: "auto" | "exact" = "auto",
): Promise<VectorBackend> {
  if (mode === "exact") return { kind: "exact", reason: "KNOWLEDGE_VECTOR_BACKEND=exact" };
  let installed = await extensionVersion(db);
  if (!installed) {
    const { rows } = await db.query<{ default_version: string }>(
      `SELECT default_version FROM pg_available_extensions WHERE name = 'vector'`,
    );
    if (rows.length === 0) return { kind: "exact", reason: "the server has no pgvector extension" };
    try {
      await db.query(`CREATE EXTENSION IF NOT EXISTS vector`);
    } catch (error) {
      logger.warn({ err: error }, "pgvector is available but could not be created: vector search scans exactly");
      return { kind: "exact", reason: "pgvector could not be created (CREATE EXTENSION vector needs the privilege)" };
    }
    installed = await extensionVersion(db);
    if (!installed) return { kind: "exact", reason: "pgvector could not be created" };
  }
  // Looked up first: ALTER TABLE locks the table even when the column exists, and every process starts through here.
  const { rows: column } = await db.query(
    `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'knowledge_chunk_vectors' AND column_name = 'vec'`,
  );
  if (column.length === 0) await db.query(`ALTER TABLE knowledge_chunk_vectors ADD COLUMN IF NOT EXISTS "vec" vector`);
  const filled = await backfillVectors(db);
  if (filled > 0) logger.info({ vectors: filled }, "pgvector: vectors stored before it was present were copied");
  return { kind: "pgvector", version: installed, iterativeScan: versionAtLeast(installed, 0, 8) };
}

async function extensionVersion(db: Queryable): Promise<string | null> {
  const { rows } = await db.query<{ extversion: string }>(
    `SELECT extversion FROM pg_extension WHERE extname = 'vector'`,
  );
  return rows[0]?.extversion ?? null;
}

/** Copies the bytes of rows without `vec` into it, a thousand at a time; returns how many. */
export async function backfillVectors(db: Queryable): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await db.query<{ chunkId: string; space: string; vector: Uint8Array }>(
      `SELECT "chunkId", "space", "vector" FROM knowledge_chunk_vectors WHERE "vec" IS NULL LIMIT 1000`,
    );
    if (rows.length === 0) return total;
    await db.query(
      `UPDATE knowledge_chunk_vectors v SET "vec" = u.vec::vector
       FROM unnest($1::text[], $2::text[], $3::text[]) AS u(chunk_id, space, vec)
       WHERE v."chunkId" = u.chunk_id AND v."space" = u.space`,
      [rows.map((r) => r.chunkId), rows.map((r) => r.space), rows.map((r) => vectorLiteral(bytesToVector(r.vector)))],
    );
    total += rows.length;
  }
}

/** The cast a space's vectors are indexed and compared under (the index expression and the query's must match). */
export function vectorCast(dimensions: number): string {
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new Error(`bad dimensions ${dimensions}`);
  return dimensions <= VECTOR_INDEX_MAX ? `vector(${dimensions})` : `halfvec(${dimensions})`;
}

function indexName(space: string): string {
  return `knowledge_chunk_vectors_hnsw_${createHash("sha256").update(space).digest("hex").slice(0, 16)}`;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The HNSW index of one space (cosine distance; pgvector's defaults m = 16, ef_construction = 64), partial on the
 * space and on its dimensions' cast, as pgvector's README shows for one column holding vectors of several models.
 * Built `CONCURRENTLY` (writes go on meanwhile) and at most once: a second process racing for it finds it made.
 */
export async function ensureSpaceIndex(db: Queryable, space: string, dimensions: number): Promise<boolean> {
  if (dimensions > HALFVEC_INDEX_MAX) return false;
  const cast = vectorCast(dimensions);
  const ops = cast.startsWith("halfvec") ? "halfvec_cosine_ops" : "vector_cosine_ops";
  try {
    await db.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${indexName(space)}" ON knowledge_chunk_vectors
       USING hnsw (("vec"::${cast}) ${ops}) WHERE "space" = ${literal(space)}`,
    );
  } catch (error) {
    // Another process created it between the check and the build.
    if (!/already exists/i.test(error instanceof Error ? error.message : String(error))) throw error;
  }
  return true;
}

export interface PgvectorQuery {
  space: string;
  query: Float32Array;
  knowledgeBaseIds: readonly string[];
  limit: number;
  metadata?: Record<string, string>;
  documentIds?: readonly string[];
  iterativeScan: boolean;
}

/**
 * The nearest passages by cosine similarity through the space's HNSW index, filtered by base, metadata and
 * documents. With pgvector ≥ 0.8 the scan is iterative (`hnsw.iterative_scan = relaxed_order`), so a selective filter
 * still fills `limit`; results are sorted again here, since relaxed order may return them slightly out of order.
 */
export async function pgvectorNearest(
  client: Queryable,
  q: PgvectorQuery,
): Promise<{ chunkId: string; score: number }[]> {
  const cast = vectorCast(q.query.length);
  const values: unknown[] = [vectorLiteral(q.query), q.space, [...q.knowledgeBaseIds], q.limit];
  const at = (value: unknown) => `$${values.push(value)}`;
  const filters: string[] = [];
  if (q.metadata && Object.keys(q.metadata).length > 0)
    filters.push(`d."metadata" @> ${at(JSON.stringify(q.metadata))}::jsonb`);
  if (q.documentIds) filters.push(`v."documentId" = ANY(${at([...q.documentIds])}::text[])`);
  const sql = `SELECT v."chunkId", (1 - (v."vec"::${cast} <=> $1::${cast}))::float8 AS "score"
    FROM knowledge_chunk_vectors v
    ${filters.length > 0 ? `JOIN knowledge_documents d ON d."id" = v."documentId"` : ""}
    WHERE v."space" = $2 AND v."knowledgeBaseId" = ANY($3::text[]) AND v."vec" IS NOT NULL
      ${filters.map((f) => `AND ${f}`).join(" ")}
    ORDER BY v."vec"::${cast} <=> $1::${cast}
    LIMIT $4`;
  await client.query("BEGIN");
  try {
    await client.query(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(40, q.limit * 2))}`);
    if (q.iterativeScan) await client.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
    const { rows } = await client.query<{ chunkId: string; score: number }>(sql, values);
    await client.query("COMMIT");
    return rows.filter((r) => r.score > 0).sort((a, b) => b.score - a.score);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
