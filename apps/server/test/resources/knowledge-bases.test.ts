import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existingKnowledgeBaseIds } from "../../src/knowledge-bases/knowledge-bases-service.js";
import { searchKnowledge } from "../../src/knowledge-bases/search-knowledge.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectEachOnceNewestFirst, expectError, expectInvalid, walkPages } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function newBase(name: string, tenant = t.tenant) {
  const res = await t.http.post(`${tenant.base}/knowledge-bases`).set(tenant.auth).send({ name });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

async function addDocument(
  kbId: string,
  doc: { title: string; content: string; metadata?: object },
  tenant = t.tenant,
) {
  const res = await t.http.post(`${tenant.base}/knowledge-bases/${kbId}/documents`).set(tenant.auth).send(doc);
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe("knowledge bases", () => {
  it("creates, gets, lists and deletes a base", async () => {
    const created = await t.http
      .post(`${t.tenant.base}/knowledge-bases`)
      .set(t.tenant.auth)
      .send({ name: "handbook", description: "Company handbook" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^kb_[0-9a-z]{26}$/),
      projectId: t.tenant.projectId,
      name: "handbook",
      description: "Company handbook",
      documentCount: 0,
      embeddingModel: "builtin/hash-ngrams",
      embedding: { status: "ready", servingModel: "builtin/hash-ngrams" },
      chunking: { maxTokens: 400, overlapTokens: 80 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id;
    await addDocument(id, { title: "Leave", content: "Twenty days of paid leave." });
    const got = await t.http.get(`${t.tenant.base}/knowledge-bases/${id}`).set(t.tenant.auth);
    expect(got.body.documentCount).toBe(1);
    const listed = await t.http.get(`${t.tenant.base}/knowledge-bases?name=handbook`).set(t.tenant.auth);
    expect(listed.body.data.map((b: { id: string }) => b.id)).toEqual([id]);

    const deleted = await t.http.delete(`${t.tenant.base}/knowledge-bases/${id}`).set(t.tenant.auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id, documentCount: 1 });
    expectError(
      await t.http.get(`${t.tenant.base}/knowledge-bases/${id}`).set(t.tenant.auth),
      404,
      "knowledge_base.not_found",
    );
    expect(await t.platform.ctx.db.prisma.knowledgeDocument.count({ where: { knowledgeBaseId: id } })).toBe(0);
  });

  it("adds, lists (without text), gets and deletes documents", async () => {
    const kb = await newBase("docs");
    const base = `${t.tenant.base}/knowledge-bases/${kb.id}/documents`;
    const created = await t.http
      .post(base)
      .set(t.tenant.auth)
      .send({ title: "Café menu", content: "Espresso, crème brûlée", metadata: { lang: "fr" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^kbdoc_[0-9a-z]{26}$/),
      knowledgeBaseId: kb.id,
      title: "Café menu",
      content: "Espresso, crème brûlée",
      metadata: { lang: "fr" },
      bytes: Buffer.byteLength("Espresso, crème brûlée"),
      contentType: "text",
      status: "pending",
      chunkCount: 1,
      embeddedChunks: 0,
      error: null,
      embeddingUsage: { inputTokens: 0, costUsd: 0 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { content: _content, ...summary } = created.body;
    const list = await t.http.get(base).set(t.tenant.auth);
    expect(list.body.data).toEqual([summary]);
    expect((await t.http.get(`${base}/${created.body.id}`).set(t.tenant.auth)).body).toEqual(created.body);
    const deleted = await t.http.delete(`${base}/${created.body.id}`).set(t.tenant.auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(summary);
    expectError(await t.http.get(`${base}/${created.body.id}`).set(t.tenant.auth), 404, "knowledge_document.not_found");
    expectError(
      await t.http.delete(`${base}/${created.body.id}`).set(t.tenant.auth),
      404,
      "knowledge_document.not_found",
    );
  });

  it("full-text mode ranks the matching passage first, with its citation", async () => {
    const kb = await newBase("search");
    await addDocument(kb.id, {
      title: "Office plants",
      content: "Water the ficus on Mondays. The cactus needs little.",
    });
    const refunds = await addDocument(kb.id, {
      title: "Refund policy",
      content:
        "Customers may request a refund within 30 days. A refund is paid to the original card. " +
        "Refunds for digital goods are reviewed by support.",
      metadata: { team: "billing" },
    });
    const mention = await addDocument(kb.id, {
      title: "Support rota",
      content: "Support works in shifts; a refund question goes to billing.",
    });
    await addDocument(kb.id, { title: "Holidays", content: "The office closes on public holidays." });

    const res = await t.http
      .post(`${t.tenant.base}/knowledge-bases/${kb.id}/search`)
      .set(t.tenant.auth)
      .send({ query: "refund", mode: "fulltext" });
    expect(res.status).toBe(200);
    expect(res.body.data.map((h: { documentId: string }) => h.documentId)).toEqual([refunds.id, mention.id]);
    expect(res.body.data[0]).toEqual({
      chunkId: expect.stringMatching(/^kbchunk_/),
      documentId: refunds.id,
      knowledgeBaseId: kb.id,
      title: "Refund policy",
      headingPath: [],
      position: 0,
      startOffset: 0,
      endOffset: 136,
      text: expect.stringContaining("request a refund within 30 days"),
      score: expect.any(Number),
      foundBy: { fulltext: { rank: 1, score: expect.any(Number) } },
      metadata: { team: "billing" },
    });
    expect(res.body.data[0].score).toBeGreaterThan(res.body.data[1].score);
    expect(res.body.mode).toBe("fulltext");
    expect(res.body.retrievers).toEqual({ fulltext: true, semantic: null });

    const phrase = await t.http
      .post(`${t.tenant.base}/knowledge-bases/${kb.id}/search`)
      .set(t.tenant.auth)
      .send({ query: '"public holidays" -ficus', limit: 5, mode: "fulltext" });
    expect(phrase.body.data.map((h: { title: string }) => h.title)).toEqual(["Holidays"]);
    const none = await t.http
      .post(`${t.tenant.base}/knowledge-bases/${kb.id}/search`)
      .set(t.tenant.auth)
      .send({ query: "!!!", mode: "fulltext" });
    expect(none.body.data).toEqual([]);
  });

  it("searchKnowledge spans the given bases of the project only, and uses the GIN index", async () => {
    const pool = t.platform.ctx.db.pool;
    const ctx = t.platform.ctx;
    const search = async (ids: string[], query: string, limit: number) =>
      (
        await searchKnowledge(ctx, {
          projectId: t.tenant.projectId,
          knowledgeBaseIds: ids,
          query,
          limit,
          mode: "fulltext",
        })
      ).data;
    const a = await newBase("a");
    const b = await newBase("b");
    const docA = await addDocument(a.id, { title: "Rockets", content: "Saturn V rocket engines" });
    const docB = await addDocument(b.id, { title: "Engines", content: "Diesel engines and rocket engines compared" });
    const other = await t.newTenant();
    const foreign = await newBase("foreign", other);
    await addDocument(foreign.id, { title: "Rocket", content: "rocket rocket rocket" }, other);

    const hits = await search([a.id, b.id, foreign.id], "rocket engines", 10);
    expect(hits.map((h) => h.documentId).sort()).toEqual([docA.id, docB.id].sort());
    expect(await search([a.id], "diesel", 10)).toEqual([]);
    expect(await search([], "rocket", 10)).toEqual([]);
    expect(await search([a.id, b.id], "rocket", 1)).toHaveLength(1);
    expect(
      await existingKnowledgeBaseIds(t.platform.ctx.db.prisma, t.tenant.projectId, [a.id, foreign.id, "kb_missing"]),
    ).toEqual(new Set([a.id]));

    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      const plan = await client.query(
        `EXPLAIN SELECT "id" FROM knowledge_chunks c
         WHERE to_tsvector('simple'::regconfig, c."context" || ' ' || c."content") @@ websearch_to_tsquery('simple', 'rocket')`,
      );
      expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("knowledge_chunks_fts_idx");
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
  });

  it("validates documents and search bodies with field paths", async () => {
    const kb = await newBase("validation");
    const docs = `${t.tenant.base}/knowledge-bases/${kb.id}/documents`;
    expectInvalid(await t.http.post(docs).set(t.tenant.auth).send({ title: " ", content: "", extra: 1 }), [
      "body.title",
      "body.content",
      "body",
    ]);
    expectInvalid(
      await t.http
        .post(docs)
        .set(t.tenant.auth)
        .send({ title: "t", content: "x", metadata: { k: 1 } }),
      ["body.metadata.k"],
    );
    expectInvalid(
      await t.http
        .post(`${t.tenant.base}/knowledge-bases/${kb.id}/search`)
        .set(t.tenant.auth)
        .send({ query: "", limit: 51 }),
      ["body.query", "body.limit"],
    );
  });

  it("indexes a document of only distinct words: its passages stay under PostgreSQL's full-text limit", async () => {
    const kb = await newBase("huge");
    let n = 0;
    const words: string[] = [];
    let size = 0;
    while (size < 1000 * 1024) {
      const word = `w${(n++).toString(36)}`;
      words.push(word);
      size += word.length + 1;
    }
    const res = await t.http
      .post(`${t.tenant.base}/knowledge-bases/${kb.id}/documents`)
      .set(t.tenant.auth)
      .send({ title: "distinct words", content: words.join(" ") });
    expect(res.status).toBe(201);
    expect(res.body.chunkCount).toBeGreaterThan(500);
    const found = await t.http
      .post(`${t.tenant.base}/knowledge-bases/${kb.id}/search`)
      .set(t.tenant.auth)
      .send({ query: words[words.length - 1], mode: "fulltext" });
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0].position).toBe(res.body.chunkCount - 1);
  });

  it("walks documents and bases exactly once; cursors bind to their base", async () => {
    const tenant = await t.newTenant();
    const kbs: string[] = [];
    for (let i = 0; i < 4; i++) kbs.push((await newBase(`kb${i}`, tenant)).id);
    const bases = await walkPages(t.http, tenant.auth, `${tenant.base}/knowledge-bases`, 3);
    expectEachOnceNewestFirst(
      bases.items.map((b) => b.id),
      kbs,
    );
    const docIds: string[] = [];
    for (let i = 0; i < 5; i++)
      docIds.push((await addDocument(kbs[0]!, { title: `d${i}`, content: "text" }, tenant)).id);
    const docs = await walkPages(t.http, tenant.auth, `${tenant.base}/knowledge-bases/${kbs[0]}/documents`, 2);
    expectEachOnceNewestFirst(
      docs.items.map((d) => d.id),
      docIds,
    );
    expectInvalid(
      await t.http.get(`${tenant.base}/knowledge-bases/${kbs[1]}/documents?cursor=${docs.cursors[0]}`).set(tenant.auth),
      ["query.cursor"],
    );
    expectInvalid(
      await t.http.get(`${tenant.base}/knowledge-bases?name=kb1&cursor=${bases.cursors[0]}`).set(tenant.auth),
      ["query.cursor"],
    );
  });

  it("hides other projects' bases and documents behind 404", async () => {
    const other = await t.newTenant();
    const theirs = await newBase("theirs", other);
    const theirDoc = await addDocument(theirs.id, { title: "secret", content: "classified" }, other);
    const mine = await newBase("mine");
    for (const path of [`/knowledge-bases/${theirs.id}`, `/knowledge-bases/${theirs.id}/documents`]) {
      expectError(await t.http.get(`${t.tenant.base}${path}`).set(t.tenant.auth), 404, "knowledge_base.not_found");
    }
    expectError(
      await t.http
        .post(`${t.tenant.base}/knowledge-bases/${theirs.id}/search`)
        .set(t.tenant.auth)
        .send({ query: "classified" }),
      404,
      "knowledge_base.not_found",
    );
    expectError(
      await t.http.get(`${t.tenant.base}/knowledge-bases/${theirs.id}/documents/${theirDoc.id}`).set(t.tenant.auth),
      404,
      "knowledge_base.not_found",
    );
    expectError(
      await t.http.get(`${t.tenant.base}/knowledge-bases/${mine.id}/documents/${theirDoc.id}`).set(t.tenant.auth),
      404,
      "knowledge_document.not_found",
    );
    expectError(await t.http.get(`${t.tenant.base}/knowledge-bases`).set(other.auth), 404, "project.not_found");
  });
});
