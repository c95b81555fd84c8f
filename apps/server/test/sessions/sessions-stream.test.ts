import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LISTENER_APPLICATION_NAME } from "../../src/lib/pg-listener.js";
import { announceProcessStart, appendEvents } from "../../src/sessions/index.js";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents, readLog } from "./helpers.js";
import { openSse, type SseConnection } from "./sse-client.js";

let t: TestApp;
let tenant: Tenant;
let agentId: string;
const open: SseConnection[] = [];

beforeAll(async () => {
  t = await startTestApp({ env: { SESSION_STREAM_HEARTBEAT_MS: "150" } });
  tenant = t.tenant;
  agentId = (await createAgent(t, tenant)).id;
});
afterAll(async () => {
  for (const c of open) c.close();
  await t?.close();
});

async function stream(sessionId: string, options: { afterSeq?: number; lastEventId?: string; as?: Tenant } = {}) {
  const who = options.as ?? tenant;
  const query = options.afterSeq !== undefined ? `?afterSeq=${options.afterSeq}` : "";
  const headers: Record<string, string> = { ...who.auth };
  if (options.lastEventId !== undefined) headers["Last-Event-ID"] = options.lastEventId;
  const connection = await openSse(`${t.url}${tenant.base}/sessions/${sessionId}/events/stream${query}`, headers);
  open.push(connection);
  return connection;
}

/** Backends of the process's shared LISTEN connection. */
async function listeners(): Promise<number> {
  const { rows } = await t.platform.ctx.db.pool.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
    [LISTENER_APPLICATION_NAME],
  );
  return rows[0].n;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 5000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not reached in time");
    await sleep(25);
  }
}

describe("GET /sessions/:id/events/stream", () => {
  it("replays the backlog then follows live entries, each as id/event/data", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("one"), message("two")] });
    const c = await stream(s.id);
    expect(c.status).toBe(200);
    expect(c.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(c.headers["cache-control"]).toContain("no-cache");
    expect(c.headers["x-request-id"]).toMatch(/^req_/);
    const backlog = await c.waitForFrames(2);
    const log = await readLog(t, tenant, s.id);
    expect(backlog).toEqual(log.map((entry) => ({ id: String(entry.seq), event: entry.type, data: entry })));

    await postEvents(t, tenant, s.id, [message("three"), { type: "user.interrupt" }]);
    await postEvents(t, tenant, s.id, [message("five")]);
    const all = await c.waitForFrames(5);
    expect(all.map((f) => f.id)).toEqual(["1", "2", "3", "4", "5"]);
    expect(all.map((f) => f.event)).toEqual([
      "user.message",
      "user.message",
      "user.message",
      "user.interrupt",
      "user.message",
    ]);
    expect(all[4]!.data).toEqual((await readLog(t, tenant, s.id))[4]);
    c.close();
  });

  it("the log read (JSON text built by the database) and the stream carry the same entries, whatever their payloads", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    const odd = 'quotes " and \\ backslash, \n newline, \t tab, \u0001 control, é, 🙂, </script>, \u2028';
    const stored = await appendEvents(t.platform.ctx.db.pool, s.id, [
      { type: "session.status_running", payload: {} },
      { type: "agent.message", payload: { content: [{ type: "text", text: odd }] } },
      {
        type: "agent.usage",
        payload: { model: "x/y", inputTokens: 12, outputTokens: 0, ratio: 0.1, negative: -3.5, big: 9007199254740991 },
      },
      {
        type: "agent.tool_use",
        payload: { name: "t", input: { a: [1, null, true, { b: "c" }], empty: {}, list: [] } },
      },
      { type: "session.status_idle", payload: { stopReason: "end_turn" } },
    ]);
    const log = await readLog(t, tenant, s.id);
    expect(log).toEqual(stored);
    const c = await stream(s.id);
    const frames = await c.waitForFrames(5);
    expect(frames.map((f) => f.data)).toEqual(log);
    c.close();
  });

  it("resumes after a disconnect with Last-Event-ID: exactly the missed entries, then live ones", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("1"), message("2"), message("3")] });
    const first = await stream(s.id);
    await first.waitForFrames(3);
    first.close();
    await first.ended;
    await postEvents(t, tenant, s.id, [message("4"), message("5")]);
    await postEvents(t, tenant, s.id, [message("6")]);

    const resumed = await stream(s.id, { lastEventId: "3", afterSeq: 0 });
    const missed = await resumed.waitForFrames(3);
    expect(missed.map((f) => f.id)).toEqual(["4", "5", "6"]);
    await postEvents(t, tenant, s.id, [message("7")]);
    await resumed.waitForFrames(4);
    await sleep(200);
    expect(resumed.frames.map((f) => f.id)).toEqual(["4", "5", "6", "7"]);
    resumed.close();
  });

  it("replays a backlog of several pages, larger than the stream's buffer, in order, then follows", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    const text = "x".repeat(1_000);
    for (let i = 0; i < 12; i++) {
      await postEvents(
        t,
        tenant,
        s.id,
        Array.from({ length: 100 }, (_, j) => message(`${i * 100 + j} ${text}`)),
      );
    }
    const c = await stream(s.id);
    await c.waitForFrames(1_200);
    await postEvents(t, tenant, s.id, [message("live")]);
    const all = await c.waitForFrames(1_201);
    expect(all.map((f) => Number(f.id))).toEqual(Array.from({ length: 1_201 }, (_, i) => i + 1));
    expect(all[1_199]!.data).toMatchObject({ content: [{ type: "text", text: `1199 ${text}` }] });
    c.close();
  });

  it("starts after ?afterSeq, and streams nothing for a log already read", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("a"), message("b"), message("c")] });
    const c = await stream(s.id, { afterSeq: 2 });
    expect((await c.waitForFrames(1)).map((f) => f.id)).toEqual(["3"]);
    const caughtUp = await stream(s.id, { afterSeq: 3 });
    await caughtUp.waitForComment((x) => x === "ping");
    expect(caughtUp.frames).toEqual([]);
    c.close();
    caughtUp.close();
  });

  it("sends heartbeats while idle", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    const c = await stream(s.id);
    await c.waitForComment((x) => x === "ping");
    await sleep(350);
    expect(c.comments.filter((x) => x === "ping").length).toBeGreaterThanOrEqual(2);
    c.close();
  });

  it("delivers every entry in order to several followers under concurrent posts", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    const followers = await Promise.all([stream(s.id), stream(s.id), stream(s.id)]);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => postEvents(t, tenant, s.id, [message(`${i}a`), message(`${i}b`)])),
    );
    const expected = Array.from({ length: 20 }, (_, i) => String(i + 1));
    for (const f of followers) expect((await f.waitForFrames(20)).map((x) => x.id)).toEqual(expected);
    for (const f of followers) f.close();
  });

  it("shares the process's one LISTEN connection, open for the process's life: no connection per follower", async () => {
    expect(await listeners()).toBe(1);
    const a = await newSession(t, tenant, { agent: agentId });
    const b = await newSession(t, tenant, { agent: agentId });
    const streams = await Promise.all([stream(a.id), stream(a.id), stream(b.id)]);
    await Promise.all(streams.map((c) => c.waitForComment((x) => x.startsWith("session"))));
    expect(await listeners()).toBe(1);
    for (const c of streams) c.close();
    await sleep(100);
    expect(await listeners()).toBe(1);
  });

  it("reconnects the shared listener and delivers what was committed while it was down", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("before")] });
    const c = await stream(s.id);
    await c.waitForFrames(1);
    await eventually(async () => (await listeners()) === 1);
    const terminated = await t.platform.ctx.db.pool.query(
      "SELECT pid, pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
      [LISTENER_APPLICATION_NAME],
    );
    expect(terminated.rows).toEqual([{ pid: expect.any(Number), done: true }]);
    await postEvents(t, tenant, s.id, [message("during outage")]);
    await postEvents(t, tenant, s.id, [message("after")]);
    const frames = await c.waitForFrames(3, 10_000);
    expect(frames.map((f) => f.data.content[0].text)).toEqual(["before", "during outage", "after"]);
    const { rows } = await t.platform.ctx.db.pool.query(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1",
      [LISTENER_APPLICATION_NAME],
    );
    expect(rows.length).toBe(1);
    expect(rows[0].pid).not.toBe(terminated.rows[0].pid);
    c.close();
  });

  it("delivers an entry whose writer died before its notice once a process starts (its `*` notice)", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("before")] });
    const c = await stream(s.id);
    await c.waitForFrames(1);
    // A writer that died between its commit and its notice: the entry is in the log, nobody was told.
    const pool = t.platform.ctx.db.pool;
    await pool.query(
      `WITH bump AS (UPDATE sessions SET "lastSeq" = "lastSeq" + 1 WHERE "id" = $1 RETURNING "lastSeq")
       INSERT INTO session_events ("sessionId", "seq", "id", "type", "payload")
       SELECT $1, "lastSeq", 'evt_unannounced0000000000000', 'user.message', $2::jsonb FROM bump`,
      [s.id, JSON.stringify({ content: [{ type: "text", text: "unannounced" }] })],
    );
    await sleep(400);
    expect(c.frames).toHaveLength(1);
    await announceProcessStart(t.platform.ctx);
    const frames = await c.waitForFrames(2);
    expect(frames.map((f) => f.data.content[0].text)).toEqual(["before", "unannounced"]);
    c.close();
  });

  it("answers 404 for a missing session, 400 for a bad Last-Event-ID", async () => {
    const missing = await stream("sess_missing");
    expect(missing.status).toBe(404);
    expect(JSON.parse(await missing.body()).error.code).toBe("session.not_found");
    const s = await newSession(t, tenant, { agent: agentId });
    const bad = await stream(s.id, { lastEventId: "abc" });
    expect(bad.status).toBe(400);
    const body = JSON.parse(await bad.body());
    expect(body.error.code).toBe("request.invalid");
    expect(body.error.details.issues[0].path).toBe("headers.last-event-id");
  });

  it("ends open streams when the server shuts down", async () => {
    const own = await startTestApp({ env: { SESSION_STREAM_HEARTBEAT_MS: "100000" } });
    try {
      const a = (await createAgent(own, own.tenant)).id;
      const s = await newSession(own, own.tenant, { agent: a });
      const c = await openSse(`${own.url}${own.tenant.base}/sessions/${s.id}/events/stream`, own.tenant.auth);
      await c.waitForComment((x) => x.startsWith("session"));
      await own.platform.close();
      await c.ended;
    } finally {
      await own.close().catch(() => {});
    }
  });
});
