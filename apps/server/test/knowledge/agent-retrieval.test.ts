import { afterAll, beforeAll, expect, it } from "vitest";
import { createAgent, newSession, postEvents, readLog } from "../sessions/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import { HANDBOOK } from "../support/retrieval-corpus.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { addDocument, createBase, waitForBase } from "./helpers.js";

// An agent answers from the passage that means what was asked, with its citation, and the log shows what was
// retrieved. `builtin/script` calls the tools (offline); the base uses the builtin embedder (no key).
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ role: "all" });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

async function say(sessionId: string, text: string, turn: number) {
  const res = await postEvents(t, t.tenant, sessionId, [{ type: "user.message", content: [{ type: "text", text }] }]);
  expect(res.status).toBe(202);
  await waitForIdle(t, t.tenant, sessionId, turn);
  return readLog(t, t.tenant, sessionId);
}

it("knowledge_search returns cited passages, knowledge_read opens the text around one, and the log keeps both", async () => {
  const kb = await createBase(t, { name: "handbook" });
  for (const doc of HANDBOOK) await addDocument(t, kb.id, { ...doc, contentType: "markdown" });
  await waitForBase(t, kb.id);
  const agent = await createAgent(t, t.tenant, {
    model: "builtin/script",
    tools: ["knowledge_search", "knowledge_read"],
    knowledgeBases: [kb.id],
  });
  const session = await newSession(t, t.tenant, { agent: agent.id });
  const log = await say(session.id, '/call knowledge_search {"query":"warranty against defects","limit":3}', 1);
  const result = log.find((e) => e.type === "agent.tool_result");
  const found = JSON.parse(result.content[0].text);
  expect(found.results[0]).toEqual({
    citation: "[1]",
    chunkId: expect.stringMatching(/^kbchunk_/),
    documentId: expect.stringMatching(/^kbdoc_/),
    title: "Hardware guide",
    section: "Hardware › Warranty",
    offsets: [expect.any(Number), expect.any(Number)],
    text: expect.stringContaining("two-year warranty against manufacturing defects"),
    score: expect.any(Number),
    foundBy: ["fulltext", "semantic"],
    metadata: { team: "hardware" },
  });
  const chunkId = found.results[0].chunkId;
  const read = await say(session.id, `/call knowledge_read {"chunkId":"${chunkId}","around":200}`, 2);
  const around = read.filter((e) => e.type === "agent.tool_result").at(-1);
  expect(around.isError).toBe(false);
  expect(around.content[0].text).toMatch(
    /^\[document kbdoc_\w+ \("Hardware guide"\), section "Hardware › Warranty": characters \d+ to \d+ of \d+; the passage is \d+ to \d+\]/,
  );
  expect(around.content[0].text).toContain("Send a faulty unit to the repair centre");
  expect(around.content[0].text).toContain("XR-220");
});

it("memory_search finds an entry by its meaning-bearing words as well as by every word", async () => {
  const store = await t.http.post(`${t.tenant.base}/memory-stores`).set(t.tenant.auth).send({ name: "notes" });
  for (const [key, content] of [
    ["customers/acme.md", "Acme prefers invoices by email and renews in March."],
    ["customers/globex.md", "Globex pays by card; their contact is Hank."],
    ["office/plants.md", "Water the ficus on Mondays."],
  ]) {
    await t.http
      .put(`${t.tenant.base}/memory-stores/${store.body.id}/entries`)
      .set(t.tenant.auth)
      .send({ key, content });
  }
  for (let i = 0; i < 400; i++) {
    const s = await t.http.get(`${t.tenant.base}/memory-stores/${store.body.id}`).set(t.tenant.auth);
    if (s.body.embedding.status === "ready") break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const agent = await createAgent(t, t.tenant, { model: "builtin/script", tools: ["memory_search"] });
  const session = await newSession(t, t.tenant, {
    agent: agent.id,
    resources: [{ memoryStore: "notes", mode: "read-only" }],
  });
  // Not every word is in the entry: full text alone finds nothing, the vectors find Acme's note.
  const log = await say(session.id, '/call memory_search {"query":"when does acme renew the invoices"}', 1);
  const result = JSON.parse(log.find((e) => e.type === "agent.tool_result").content[0].text);
  expect(result.results[0]).toMatchObject({ store: "notes", key: "customers/acme.md", foundBy: ["semantic"] });
  const api = await t.http
    .post(`${t.tenant.base}/memory-stores/${store.body.id}/search`)
    .set(t.tenant.auth)
    .send({ query: "ficus", mode: "fulltext" });
  expect(api.body.data.map((h: { key: string }) => h.key)).toEqual(["office/plants.md"]);
});
