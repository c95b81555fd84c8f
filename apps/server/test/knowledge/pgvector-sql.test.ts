import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  backfillVectors,
  detectVectorBackend,
  ensureSpaceIndex,
  pgvectorNearest,
  type Queryable,
} from "../../src/knowledge-bases/pgvector.js";
import { topByDotProduct, vectorToBytes } from "../../src/retrieval/index.js";

// The pgvector path's SQL against pgvector itself: PGlite (PostgreSQL compiled to WebAssembly, from npm) ships the
// real pgvector extension (0.8.x). This machine's PostgreSQL has no pgvector package, so the platform's own tests run
// the exact-scan path; these run the pgvector statements — detection, the `vec` column and its backfill, the HNSW
// index per space, the filtered nearest-neighbour query — on the same tables.
let db: PGlite;
let q: Queryable;
const logger = { info: () => {}, warn: () => {} };

function unit(values: number[]): Float32Array {
  const norm = Math.sqrt(values.reduce((s, v) => s + v * v, 0));
  return Float32Array.from(values.map((v) => v / norm));
}

/** Deterministic pseudo-random unit vectors. */
function vectors(count: number, dims: number, seed: number): Float32Array[] {
  let x = seed;
  const next = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32 - 0.5;
  };
  return Array.from({ length: count }, () => unit(Array.from({ length: dims }, next)));
}

async function insert(space: string, base: string, doc: string, rows: Float32Array[], from = 0) {
  for (const [i, v] of rows.entries()) {
    const id = `${base}-${space}-${from + i}`;
    await db.query(
      `INSERT INTO knowledge_chunks ("id", "documentId", "knowledgeBaseId", "position", "context", "content", "startOffset", "endOffset")
       VALUES ($1, $2, $3, $4, '', '', 0, 0) ON CONFLICT DO NOTHING`,
      [id, doc, base, from + i],
    );
    await db.query(
      `INSERT INTO knowledge_chunk_vectors ("chunkId", "space", "knowledgeBaseId", "documentId", "vector") VALUES ($1, $2, $3, $4, $5)`,
      [id, space, base, doc, vectorToBytes(v)],
    );
  }
}

beforeAll(async () => {
  db = await PGlite.create({ extensions: { vector } });
  q = { query: (text: string, values?: unknown[]) => db.query(text, values) } as unknown as Queryable;
  // The tables as the migration creates them (the columns these statements use).
  await db.exec(`
    CREATE TABLE knowledge_documents ("id" TEXT PRIMARY KEY, "knowledgeBaseId" TEXT NOT NULL, "metadata" JSONB NOT NULL DEFAULT '{}');
    CREATE TABLE knowledge_chunks ("id" TEXT PRIMARY KEY, "documentId" TEXT NOT NULL REFERENCES knowledge_documents("id") ON DELETE CASCADE,
      "knowledgeBaseId" TEXT NOT NULL, "position" INTEGER NOT NULL, "headingPath" TEXT[], "context" TEXT NOT NULL,
      "content" TEXT NOT NULL, "startOffset" INTEGER NOT NULL, "endOffset" INTEGER NOT NULL);
    CREATE TABLE knowledge_chunk_vectors ("chunkId" TEXT NOT NULL REFERENCES knowledge_chunks("id") ON DELETE CASCADE,
      "space" TEXT NOT NULL, "knowledgeBaseId" TEXT NOT NULL, "documentId" TEXT NOT NULL, "vector" BYTEA NOT NULL,
      "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, CONSTRAINT knowledge_chunk_vectors_pkey PRIMARY KEY ("chunkId", "space"));
    CREATE INDEX ON knowledge_chunk_vectors ("knowledgeBaseId", "space");
    INSERT INTO knowledge_documents VALUES ('doc-a', 'kb-a', '{"team":"billing"}'), ('doc-b', 'kb-a', '{"team":"hardware"}'),
      ('doc-c', 'kb-c', '{}');
  `);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe("the pgvector path's SQL, on pgvector (PGlite)", () => {
  const space = "openai/text-embedding-3-small@8";
  const a = vectors(300, 8, 1);
  const b = vectors(300, 8, 2);

  it("detects pgvector, adds the vec column and copies the vectors stored before it", async () => {
    await insert(space, "kb-a", "doc-a", a.slice(0, 100));
    const backend = await detectVectorBackend(q, logger);
    expect(backend).toEqual({ kind: "pgvector", version: expect.stringMatching(/^0\.8\./), iterativeScan: true });
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM knowledge_chunk_vectors WHERE "vec" IS NOT NULL`,
    );
    expect(rows[0]!.n).toBe(100);
    expect(await detectVectorBackend(q, logger, "exact")).toEqual({
      kind: "exact",
      reason: "KNOWLEDGE_VECTOR_BACKEND=exact",
    });
  });

  it("builds an HNSW index per space that the nearest-neighbour query uses, with the exact scan's answers", async () => {
    await insert(space, "kb-a", "doc-a", a.slice(100), 100);
    await insert(space, "kb-a", "doc-b", b, 300);
    await insert(space, "kb-c", "doc-c", vectors(50, 8, 3), 600);
    expect(await backfillVectors(q)).toBe(550);
    expect(await ensureSpaceIndex(q, space, 8)).toBe(true);
    expect(await ensureSpaceIndex(q, space, 8)).toBe(true);
    const { rows: indexes } = await db.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'knowledge_chunk_vectors' AND indexdef LIKE '%hnsw%'`,
    );
    expect(indexes).toHaveLength(1);
    expect(indexes[0]!.indexdef).toContain("vector_cosine_ops");
    expect(indexes[0]!.indexdef).toContain(`WHERE (space = '${space}'::text)`);

    const query = vectors(1, 8, 99)[0]!;
    await db.exec("SET enable_seqscan = off");
    const plan = await db.query<{ "QUERY PLAN": string }>(
      `EXPLAIN SELECT "chunkId" FROM knowledge_chunk_vectors v WHERE v."space" = '${space}'
       ORDER BY v."vec"::vector(8) <=> '[${[...query].join(",")}]'::vector(8) LIMIT 10`,
    );
    expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/Index Scan using knowledge_chunk_vectors_hnsw_/);
    await db.exec("RESET enable_seqscan");

    const found = await pgvectorNearest(q, {
      space,
      query,
      knowledgeBaseIds: ["kb-a"],
      limit: 10,
      iterativeScan: true,
    });
    // The exact answer over kb-a's 600 vectors: HNSW's recall on this small set is complete.
    const all = [...a, ...b];
    const matrix = new Float32Array(all.length * 8);
    for (const [i, v] of all.entries()) matrix.set(v, i * 8);
    const exact = topByDotProduct(matrix, 8, query, 10).map((r) => `kb-a-${space}-${r.row}`);
    expect(found.map((f) => f.chunkId)).toEqual(exact);
    expect(found[0]!.score).toBeCloseTo(topByDotProduct(matrix, 8, query, 1)[0]!.score, 5);
    expect(found.every((f) => f.chunkId.startsWith("kb-a-"))).toBe(true);
  });

  it("filters by metadata and documents, and a selective filter still fills the limit (iterative scan)", async () => {
    const query = vectors(1, 8, 7)[0]!;
    const billing = await pgvectorNearest(q, {
      space,
      query,
      knowledgeBaseIds: ["kb-a"],
      limit: 20,
      metadata: { team: "hardware" },
      iterativeScan: true,
    });
    expect(billing).toHaveLength(20);
    const { rows } = await db.query<{ id: string }>(`SELECT "id" FROM knowledge_chunks WHERE "documentId" = 'doc-b'`);
    const hardware = new Set(rows.map((r) => r.id));
    expect(billing.every((f) => hardware.has(f.chunkId))).toBe(true);
    const docs = await pgvectorNearest(q, {
      space,
      query,
      knowledgeBaseIds: ["kb-a"],
      limit: 5,
      documentIds: ["doc-c"],
      iterativeScan: true,
    });
    expect(docs).toHaveLength(0);
    const ofC = await pgvectorNearest(q, { space, query, knowledgeBaseIds: ["kb-c"], limit: 5, iterativeScan: true });
    expect(ofC).toHaveLength(5);
    expect(ofC.every((f) => f.chunkId.startsWith("kb-c-"))).toBe(true);
  });

  it("indexes vectors longer than 2,000 dimensions as halfvec", async () => {
    const wide = "openai/text-embedding-3-large";
    await insert(wide, "kb-a", "doc-a", vectors(3, 3072, 5), 900);
    await backfillVectors(q);
    expect(await ensureSpaceIndex(q, wide, 3072)).toBe(true);
    const { rows } = await db.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE indexdef LIKE '%halfvec_cosine_ops%'`,
    );
    expect(rows).toHaveLength(1);
    const found = await pgvectorNearest(q, {
      space: wide,
      query: vectors(3, 3072, 5)[1]!,
      knowledgeBaseIds: ["kb-a"],
      limit: 1,
      iterativeScan: true,
    });
    expect(found[0]!.chunkId).toBe(`kb-a-${wide}-901`);
    expect(found[0]!.score).toBeCloseTo(1, 2);
  });
});
