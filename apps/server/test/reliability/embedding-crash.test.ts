import { afterAll, beforeAll, expect, it } from "vitest";
import { FAKE_EMBEDDING_KEY, type FakeEmbeddings, startFakeEmbeddings } from "../support/fake-embeddings.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { killWorkerProcess, startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";

// A worker killed while it embeds a knowledge base: another worker takes the job over when the lease expires and
// finishes it; no passage is left without its vector, none gets two, and the tokens recorded count each passage once.
let t: TestApp;
let fake: FakeEmbeddings;
const LEASE_MS = "3000";

beforeAll(async () => {
  fake = await startFakeEmbeddings();
  t = await startTestApp({ role: "api", env: { OPENAI_API_KEY: FAKE_EMBEDDING_KEY, OPENAI_BASE_URL: fake.url } });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function documentRow(kbId: string, docId: string) {
  const res = await t.http.get(`${t.tenant.base}/knowledge-bases/${kbId}/documents/${docId}`).set(t.tenant.auth);
  return res.body as {
    status: string;
    chunkCount: number;
    embeddedChunks: number;
    embeddingUsage: { inputTokens: number };
  };
}

it("a worker killed mid-embedding loses and duplicates nothing", async () => {
  const env = {
    OPENAI_API_KEY: FAKE_EMBEDDING_KEY,
    OPENAI_BASE_URL: fake.url,
    WORKER_LEASE_MS: LEASE_MS,
    KNOWLEDGE_EMBED_BATCH: "4",
  };
  const kb = await t.http
    .post(`${t.tenant.base}/knowledge-bases`)
    .set(t.tenant.auth)
    .send({
      name: "crash",
      embeddingModel: "openai/text-embedding-3-small",
      chunking: { maxTokens: 100, overlapTokens: 0 },
    });
  const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}: ${"refund shipping warranty ".repeat(14)}`);
  const doc = await t.http
    .post(`${t.tenant.base}/knowledge-bases/${kb.body.id}/documents`)
    .set(t.tenant.auth)
    .send({ title: "Long", content: paragraphs.join("\n\n") });
  expect(doc.status).toBe(201);
  expect(doc.body.chunkCount).toBeGreaterThanOrEqual(20);

  fake.setDelay(200);
  const first = await startWorkerProcess(t, env);
  let row = await documentRow(kb.body.id, doc.body.id);
  while (row.embeddedChunks < 8) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    row = await documentRow(kb.body.id, doc.body.id);
  }
  await killWorkerProcess(first);
  const atKill = (await documentRow(kb.body.id, doc.body.id)).embeddedChunks;
  expect(atKill).toBeLessThan(doc.body.chunkCount);

  fake.setDelay(0);
  const second = await startWorkerProcess(t, env);
  try {
    while (row.status !== "ready") {
      await new Promise((resolve) => setTimeout(resolve, 50));
      row = await documentRow(kb.body.id, doc.body.id);
    }
  } finally {
    await stopWorkerProcess(second);
  }
  expect(row.embeddedChunks).toBe(doc.body.chunkCount);
  const { rows } = await t.platform.ctx.db.pool.query<{
    chunks: number;
    vectors: number;
    distinct: number;
    expected: number;
  }>(
    `SELECT (SELECT count(*)::int FROM knowledge_chunks WHERE "documentId" = $1) AS "chunks",
            (SELECT count(*)::int FROM knowledge_chunk_vectors WHERE "documentId" = $1) AS "vectors",
            (SELECT count(DISTINCT "chunkId")::int FROM knowledge_chunk_vectors WHERE "documentId" = $1) AS "distinct",
            (SELECT sum(ceil(char_length("context" || E'\\n\\n' || "content") / 4.0))::int FROM knowledge_chunks
              WHERE "documentId" = $1) AS "expected"`,
    [doc.body.id],
  );
  expect(rows[0]).toEqual({
    chunks: doc.body.chunkCount,
    vectors: doc.body.chunkCount,
    distinct: doc.body.chunkCount,
    expected: row.embeddingUsage.inputTokens,
  });
}, 120_000);
