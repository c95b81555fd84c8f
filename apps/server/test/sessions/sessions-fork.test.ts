import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, expectError, expectInvalid, message, newSession, postEvents, readLog } from "./helpers.js";
import { getSession, type LogEntry, types, waitForIdle } from "./loop-helpers.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");
const fork = (sessionId: string, body: Record<string, unknown>, tenant = t.tenant) =>
  t.http.post(`${tenant.base}/sessions/${sessionId}/fork`).set(tenant.auth).send(body);
const identity = (log: LogEntry[]) => log.map((e) => ({ seq: e.seq, id: e.id, type: e.type }));

/** A session of two finished turns: seqs 1–5 and 6–10 (message, running, answer, usage, idle). */
async function twoTurns(agentId: string) {
  fake.enqueue({ text: "Paris is in Spain." }, { text: "It has about two million people." });
  const session = await newSession(t, t.tenant, { agent: agentId, events: [message("Where is Paris?")] });
  await waitForIdle(t, t.tenant, session.id);
  expect((await postEvents(t, t.tenant, session.id, [message("How many people live there?")])).status).toBe(202);
  const log = await waitForIdle(t, t.tenant, session.id, 2);
  expect(log).toHaveLength(10);
  return { session, log };
}

describe("fork a session", () => {
  it("continues from a mid-log user.message with another version, the model seeing exactly the prefix", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, system: "Answer geography questions." });
    const { session, log } = await twoTurns(agent.id);
    const fixed = await t.http
      .post(`${t.tenant.base}/agents/${agent.id}`)
      .set(t.tenant.auth)
      .send({ version: agent.version, system: "Answer geography questions. Paris is in France." });
    expect(fixed.status).toBe(200);
    fake.reset();
    fake.enqueue({ text: "About two million people live in Paris, France." });

    const res = await fork(session.id, { atSeq: 6, agent: { id: agent.id, version: fixed.body.version } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      agent: { id: agent.id, version: fixed.body.version },
      forkedFrom: { sessionId: session.id, seq: 6 },
      lastSeq: 6,
      parentSessionId: null,
    });
    expect(res.body.id).not.toBe(session.id);

    const forked = await waitForIdle(t, t.tenant, res.body.id, 2); // the copied turn's idle, then its own
    expect(identity(forked.slice(0, 6))).toEqual(identity(log.slice(0, 6)));
    expect(forked.slice(0, 6)).toEqual(log.slice(0, 6));
    expect(types(forked.slice(6))).toEqual([
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(forked[6].seq).toBe(7);

    const calls = chatCalls();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body.messages).toEqual([
      { role: "system", content: "Answer geography questions. Paris is in France." },
      { role: "user", content: "Where is Paris?" },
      { role: "assistant", content: "Paris is in Spain." },
      { role: "user", content: "How many people live there?" },
    ]);
    // The source is untouched.
    expect(await readLog(t, t.tenant, session.id)).toEqual(log);
  });

  it("at the end of a turn copies the log and stays idle, with the source's stop reason and title", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const { session, log } = await twoTurns(agent.id);
    const res = await fork(session.id, { atSeq: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: "idle", stopReason: "end_turn", lastSeq: 5, title: null });
    expect(await readLog(t, t.tenant, res.body.id)).toEqual(log.slice(0, 5));
    const renamed = await fork(session.id, { atSeq: 10, title: "Replay" });
    expect(renamed.body).toMatchObject({ title: "Replay", lastSeq: 10, forkedFrom: { seq: 10 } });
    expect(chatCalls()).toHaveLength(2); // only the source's two turns
    expect(await getSession(t, t.tenant, res.body.id)).toMatchObject({ status: "idle" });
  });

  it("refuses a point inside an open turn, a seq beyond the log, and another tenant's session", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const { session } = await twoTurns(agent.id);
    for (const atSeq of [7, 8, 9]) expectError(await fork(session.id, { atSeq }), 409, "session.fork_point_open");
    expectInvalid(await fork(session.id, { atSeq: 11 }), ["body.atSeq"]);
    expectInvalid(await fork(session.id, { atSeq: 0 }), ["body.atSeq"]);
    const other = await t.newTenant();
    expectError(await fork(session.id, { atSeq: 5 }, other), 404, "session.not_found");
    const listed = await t.http.get(`${t.tenant.base}/sessions?agent=${agent.id}`).set(t.tenant.auth);
    expect(listed.body.data).toHaveLength(1); // nothing half-written
  });

  it("runs the fork on another model when asked, and refuses an archived agent", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const { session } = await twoTurns(agent.id);
    fake.reset();
    const res = await fork(session.id, { atSeq: 6, model: "builtin/echo" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const forked = await waitForIdle(t, t.tenant, res.body.id, 2);
    expect(forked[7]).toMatchObject({
      type: "agent.message",
      content: [{ type: "text", text: "How many people live there?" }],
    });
    expect(chatCalls()).toHaveLength(0);
    const other = await createAgent(t, t.tenant);
    expect((await t.http.post(`${t.tenant.base}/agents/${other.id}/archive`).set(t.tenant.auth).send({})).status).toBe(
      200,
    );
    expectError(await fork(session.id, { atSeq: 5, agent: other.id }), 409, "agent.archived");
  });

  it("refuses a point where a tool use has no result yet", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["artifact_write"] });
    fake.enqueue(
      { toolCalls: [{ name: "artifact_write", arguments: { name: "a.md", content: "x" } }] },
      { text: "Saved." },
    );
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("save a")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    const use = log.find((e: LogEntry) => e.type === "agent.tool_use");
    expectError(await fork(session.id, { atSeq: use.seq }), 409, "session.fork_point_open");
    const res = await fork(session.id, { atSeq: log.length });
    expect(res.status).toBe(201);
    // Ids are kept: the copied result still answers the copied tool use.
    const copied = await readLog(t, t.tenant, res.body.id);
    const result = copied.find((e: LogEntry) => e.type === "agent.tool_result");
    expect(result.toolUseId).toBe(use.id);
  });

  it("copies a 5,000-entry archived log in one statement, entry for entry", async () => {
    const agent = await createAgent(t, t.tenant);
    const session = await newSession(t, t.tenant, { agent: agent.id });
    const pool = t.platform.ctx.db.pool;
    await pool.query(
      `WITH seeded AS (
         INSERT INTO session_events ("sessionId", "seq", "id", "type", "payload")
         SELECT $1, g, 'evt_seed' || lpad(g::text, 22, '0'),
           (ARRAY['user.message', 'session.status_running', 'agent.message', 'agent.usage', 'session.status_idle'])[(g - 1) % 5 + 1],
           CASE (g - 1) % 5
             WHEN 0 THEN jsonb_build_object('content', jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'question ' || g)))
             WHEN 2 THEN jsonb_build_object('content', jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'answer ' || g)))
             WHEN 3 THEN jsonb_build_object('model', 'builtin/echo', 'inputTokens', 3, 'outputTokens', 2)
             WHEN 4 THEN jsonb_build_object('stopReason', 'end_turn')
             ELSE '{}'::jsonb END
         FROM generate_series(1, 5000) g RETURNING 1
       )
       UPDATE sessions SET "lastSeq" = 5000 WHERE "id" = $1 AND (SELECT count(*) FROM seeded) = 5000`,
      [session.id],
    );
    expect(
      (await t.http.post(`${t.tenant.base}/sessions/${session.id}/archive`).set(t.tenant.auth).send({})).status,
    ).toBe(200);
    const res = await fork(session.id, { atSeq: 5000 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ lastSeq: 5000, archivedAt: null, stopReason: "end_turn" });
    const digest = async (id: string) =>
      (
        await pool.query(
          `SELECT count(*)::int AS n, md5(string_agg("seq" || '|' || "id" || '|' || "type" || '|' || "payload"::text || '|' ||
             "createdAt"::text, ',' ORDER BY "seq")) AS sum FROM session_events WHERE "sessionId" = $1`,
          [id],
        )
      ).rows[0];
    const copied = await digest(res.body.id);
    expect(copied.n).toBe(5000);
    expect(copied).toEqual(await digest(session.id));
    // The fork is an active session: it takes new events.
    expect((await postEvents(t, t.tenant, res.body.id, [message("one more")])).body.events[0].seq).toBe(5001);
  });
});
