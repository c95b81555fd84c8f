// `pnpm bench` (retrieval): documents ingested per second (split into passages + embedded, with an instant fake
// OpenAI embeddings server and with the builtin embedder), search p50/p95 over 10k and 100k passages (exact scan; the
// HNSW path needs pgvector, see docs/performance.md), the exact scan's cost per vector, and the recall@5 table of
// the labelled set (test/support/retrieval-corpus.ts). ROLE=all, fresh database; timings are wall clock on a shared
// machine: compare them on a quiet one.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { newId } from "../src/ids.js";
import { builtinEmbedding } from "../src/models/index.js";
import { startPlatform } from "../src/platform-process.js";
import { topByDotProduct, vectorToBytes } from "../src/retrieval/index.js";
import { FAKE_EMBEDDING_KEY, startFakeEmbeddings } from "../test/support/fake-embeddings.js";
import { HANDBOOK, hitAt, QUERIES } from "../test/support/retrieval-corpus.js";
import { apiClient, benchPlatformEnv, freshDatabase, percentile } from "./support.js";

const fake = await startFakeEmbeddings();
const database = await freshDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const platform = await startPlatform(
  loadConfig({
    ...benchPlatformEnv({ databaseUrl: database?.url, dataDir, apiKey: key, modelUrl: fake.url }),
    OPENAI_API_KEY: FAKE_EMBEDDING_KEY,
    OPENAI_BASE_URL: fake.url,
    KNOWLEDGE_VECTOR_BACKEND: "exact",
  }),
);
const out = (line: string) => process.stdout.write(`${line}\n`);
const pool = platform.ctx.db.pool;

const WORDS = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919).toString(36)}`);
let seed = 42;
function random(): number {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
}
const sentence = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
function document(i: number): string {
  const sections = Array.from({ length: 6 }, (_, s) => `## Section ${s}\n\n${sentence(90)}.\n\n${sentence(110)}.`);
  return `# Document ${i}\n\n${sections.join("\n\n")}`;
}

try {
  const api = apiClient(platform.url!, key);
  const base = `/v1/projects/${platform.bootstrap!.projectId}`;
  const waitReady = async (id: string) => {
    for (;;) {
      const kb = await api<{ embedding: { status: string } }>("GET", `${base}/knowledge-bases/${id}`);
      if (kb.embedding.status === "ready") return;
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  // 1. Ingestion: POST every document, then wait until every passage has its vector.
  const ingestion: [string, string][] = [];
  const DOCS = 200;
  for (const model of ["openai/text-embedding-3-small", "builtin/hash-ngrams"]) {
    const kb = await api<{ id: string }>("POST", `${base}/knowledge-bases`, {
      name: `ingest ${model}`,
      embeddingModel: model,
    });
    const started = performance.now();
    let chunks = 0;
    for (let i = 0; i < DOCS; i++) {
      const doc = await api<{ chunkCount: number }>("POST", `${base}/knowledge-bases/${kb.id}/documents`, {
        title: `Document ${i}`,
        content: document(i),
        contentType: "markdown",
      });
      chunks += doc.chunkCount;
    }
    const stored = performance.now() - started;
    await waitReady(kb.id);
    const total = (performance.now() - started) / 1000;
    ingestion.push([
      `${model}: ${DOCS} documents of ~8 KB (${chunks} passages)`,
      `${(DOCS / total).toFixed(1)} documents/s, ${(chunks / total).toFixed(0)} passages/s (stored and searchable by words after ${(stored / DOCS).toFixed(1)} ms per document)`,
    ]);
  }
  table("Ingestion (split + embed, instant fake provider)", ingestion);

  // 2. Search latency over 10k and 100k passages (synthetic vectors inserted directly; exact scan).
  const latency: [string, string][] = [];
  const kb = await api<{ id: string }>("POST", `${base}/knowledge-bases`, { name: "scale" });
  const docId = newId("knowledgeDocument");
  await pool.query(
    `INSERT INTO knowledge_documents ("id", "knowledgeBaseId", "title", "content", "bytes", "status", "updatedAt")
     VALUES ($1, $2, 'synthetic', '', 0, 'ready', now())`,
    [docId, kb.id],
  );
  let inserted = 0;
  for (const size of [10_000, 100_000]) {
    while (inserted < size) {
      const n = Math.min(5_000, size - inserted);
      const ids = Array.from({ length: n }, () => newId("knowledgeChunk"));
      const texts = Array.from({ length: n }, () => sentence(60));
      await pool.query(
        `INSERT INTO knowledge_chunks ("id", "documentId", "knowledgeBaseId", "position", "headingPath", "context", "content", "startOffset", "endOffset")
         SELECT u.id, $1, $2, u.pos, '{}', 'synthetic', u.text, 0, 0
         FROM unnest($3::text[], $4::int[], $5::text[]) AS u(id, pos, text)`,
        [docId, kb.id, ids, ids.map((_, i) => inserted + i), texts],
      );
      await pool.query(
        `INSERT INTO knowledge_chunk_vectors ("chunkId", "space", "knowledgeBaseId", "documentId", "vector")
         SELECT u.id, 'builtin/hash-ngrams', $1, $2, u.v FROM unnest($3::text[], $4::bytea[]) AS u(id, v)`,
        [kb.id, docId, ids, texts.map((t) => vectorToBytes(builtinEmbedding(t)))],
      );
      inserted += n;
    }
    await pool.query(`SELECT pg_notify('knowledge_vectors', $1)`, [kb.id]);
    await pool.query("ANALYZE knowledge_chunks");
    for (const mode of ["semantic", "fulltext", "hybrid"] as const) {
      const times: number[] = [];
      for (let i = 0; i < 41; i++) {
        const started = performance.now();
        await api("POST", `${base}/knowledge-bases/${kb.id}/search`, { query: sentence(4), mode, limit: 10 });
        if (i > 0) times.push(performance.now() - started); // the first loads the vectors
      }
      latency.push([
        `${size.toLocaleString("en")} passages, ${mode}`,
        `p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
      ]);
    }
  }
  table("Search over HTTP, exact scan (512-dimension builtin vectors, limit 10)", latency);

  // 3. Recall@5 on the labelled set.
  const recall: [string, string][] = [];
  for (const model of ["openai/text-embedding-3-small", "builtin/hash-ngrams"]) {
    const hb = await api<{ id: string }>("POST", `${base}/knowledge-bases`, {
      name: `recall ${model}`,
      embeddingModel: model,
    });
    for (const doc of HANDBOOK)
      await api("POST", `${base}/knowledge-bases/${hb.id}/documents`, { ...doc, contentType: "markdown" });
    await waitReady(hb.id);
    const cells: string[] = [];
    for (const mode of ["fulltext", "semantic", "hybrid"]) {
      let found = 0;
      for (const q of QUERIES) {
        const res = await api<{ data: { title: string; headingPath: string[] }[] }>(
          "POST",
          `${base}/knowledge-bases/${hb.id}/search`,
          { query: q.query, mode, limit: 5 },
        );
        found += hitAt(res.data, q, 5);
      }
      cells.push(`${mode} ${(found / QUERIES.length).toFixed(2)}`);
    }
    recall.push([model === "builtin/hash-ngrams" ? model : `${model} (fake: thesaurus model)`, cells.join(", ")]);
  }
  table(`Recall@5, ${QUERIES.length} labelled questions`, recall);
  // 4. The exact scan alone (no HTTP: last, so that no kept-alive connection idles past its timeout): where it passes 100 ms.
  const scan: [string, string][] = [];
  for (const dims of [512, 1536]) {
    for (const rows of [10_000, 100_000]) {
      const matrix = new Float32Array(rows * dims);
      for (let i = 0; i < matrix.length; i++) matrix[i] = random() - 0.5;
      const query = Float32Array.from({ length: dims }, () => random() - 0.5);
      topByDotProduct(matrix, dims, query, 30);
      const times: number[] = [];
      const cpu = process.cpuUsage();
      for (let i = 0; i < 15; i++) {
        const started = performance.now();
        topByDotProduct(matrix, dims, query, 30);
        times.push(performance.now() - started);
      }
      const used = process.cpuUsage(cpu);
      const cpuMs = (used.user + used.system) / 1000 / 15;
      const p50 = percentile(times, 50);
      // CPU time too: the machine is shared, wall time includes waiting for a core.
      scan.push([
        `${rows.toLocaleString("en")} × ${dims} dimensions`,
        `wall ${p50.toFixed(1)} ms, CPU ${cpuMs.toFixed(1)} ms (${((cpuMs * 1e6) / rows).toFixed(0)} ns of CPU per vector: 100 ms ≈ ${Math.floor((100 * rows) / cpuMs).toLocaleString("en")} vectors)`,
      ]);
    }
  }
  table("Exact scan in process (p50, top 30)", scan);
} finally {
  await platform.close();
  await fake.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

function table(title: string, rows: [string, string][]): void {
  const width = Math.max(title.length, ...rows.map(([label]) => label.length));
  out("");
  out(`| ${title.padEnd(width)} | Result |`);
  out(`|${"-".repeat(width + 2)}|--------|`);
  for (const [label, value] of rows) out(`| ${label.padEnd(width)} | ${value} |`);
}
