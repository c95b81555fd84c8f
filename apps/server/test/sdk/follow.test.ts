import { AgentPlatform, type SessionLogEvent } from "@agent-platform/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startFaultProxy } from "../support/fault-proxy.js";
import { type RestartableApi, startRestartableApi } from "../support/restartable-api.js";
import { startTcpRelay } from "../support/tcp-relay.js";
import type { TestApp } from "../support/test-app.js";
import { startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";

const MODEL = "openai-compatible/fake-model";
let api: RestartableApi;
let fake: FakeOpenAI;
let worker: Awaited<ReturnType<typeof startWorkerProcess>> | undefined;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  api = await startRestartableApi({ OPENAI_COMPATIBLE_BASE_URL: fake.url, SESSION_STREAM_HEARTBEAT_MS: "1000" });
  // The worker is its own process: it goes on writing the log while the API restarts.
  const asTestApp = { platform: { ctx: { config: api.config } } } as unknown as TestApp;
  worker = await startWorkerProcess(asTestApp, { OPENAI_COMPATIBLE_BASE_URL: fake.url });
});
afterAll(async () => {
  if (worker) await stopWorkerProcess(worker);
  await api?.close();
  await fake?.close();
});

/** Collects what `follow` yields until `count` idle entries were seen. */
function collect(platform: AgentPlatform, sessionId: string, idles: number, signal: AbortSignal) {
  const seen: SessionLogEvent[] = [];
  const connection: string[] = [];
  let idle = 0;
  const done = (async () => {
    for await (const event of platform.sessions.follow(sessionId, {
      signal,
      until: (e) => e.type === "session.status_idle" && ++idle === idles,
      onConnection: (state) => connection.push(state),
    })) {
      seen.push(event);
    }
    return seen;
  })();
  return { seen, done, connection };
}

/** A fetch that counts the stream connections it opens (reconnections show as more than one). */
function countingStreams() {
  const counter = {
    streams: 0,
    fetch: ((input, init) => {
      if (String(input).endsWith("/events/stream")) counter.streams++;
      return fetch(input, init);
    }) as typeof fetch,
  };
  return counter;
}

async function eventually(what: string, check: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function fullLog(platform: AgentPlatform, sessionId: string) {
  const log: SessionLogEvent[] = [];
  for await (const e of platform.sessions.listEvents(sessionId)) log.push(e);
  return log;
}

describe("follow", () => {
  it("resumes after the connection is cut, without gaps or repeats", async () => {
    const direct = new AgentPlatform({ baseUrl: api.url, apiKey: api.tenant.key });
    const relay = await startTcpRelay({ host: "127.0.0.1", port: api.config.port });
    const counter = countingStreams();
    const viaRelay = new AgentPlatform({
      baseUrl: `http://127.0.0.1:${relay.port}`,
      apiKey: api.tenant.key,
      fetch: counter.fetch,
    });
    try {
      const agent = await direct.agents.create({ name: "Echo", model: "builtin/echo" });
      const session = await direct.sessions.create({ agent: agent.id });
      const follower = collect(viaRelay, session.id, 2, AbortSignal.timeout(30_000));
      await direct.sessions.send(session.id, "one");
      await eventually("the first turn", () => follower.seen.some((e) => e.type === "session.status_idle"));

      expect(follower.connection).toEqual(["open"]);
      await relay.cut();
      const ack = await direct.sessions.send(session.id, "two");
      await direct.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });
      // The follower says the stream is down while it is (a view shows "not live"), then open again.
      await eventually("the follower notices the cut", () => follower.connection.includes("reconnecting"));
      await relay.restore();

      const seen = await follower.done;
      const log = await fullLog(direct, session.id);
      expect(seen.map((e) => e.seq)).toEqual(log.map((e) => e.seq));
      expect(seen).toEqual(log);
      expect(counter.streams).toBeGreaterThan(1);
      expect(follower.connection[0]).toBe("open");
      expect(follower.connection.at(-1)).toBe("open");
      expect(follower.connection).toContain("reconnecting");
    } finally {
      await relay.close();
    }
  });

  it("resumes across a restart of the API while the worker goes on writing", async () => {
    const counter = countingStreams();
    const platform = new AgentPlatform({ baseUrl: api.url, apiKey: api.tenant.key, fetch: counter.fetch });
    fake.enqueue(
      { toolCalls: [{ name: "artifact_write", arguments: { name: "a.md", content: "A" } }], delayMs: 300 },
      { text: "Written.", delayMs: 1500 },
    );
    const agent = await platform.agents.create({ name: "Writer", model: MODEL, tools: ["artifact_write"] });
    const session = await platform.sessions.create({ agent: agent.id });
    const follower = collect(platform, session.id, 1, AbortSignal.timeout(40_000));
    await platform.sessions.send(session.id, "write a.md");
    await eventually("the tool use", () => follower.seen.some((e) => e.type === "agent.tool_use"));

    await api.restart();

    const seen = await follower.done;
    const log = await fullLog(platform, session.id);
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "end_turn" });
    expect(seen.map((e) => e.seq)).toEqual(log.map((e) => e.seq));
    expect(seen).toEqual(log);
    expect(seen.map((e) => e.type)).toContain("agent.message");
    expect(counter.streams).toBeGreaterThan(1);
  });

  it("reconnects after 503 and 429 answers, as Retry-After says", async () => {
    const proxy = await startFaultProxy(api.url);
    try {
      const platform = new AgentPlatform({
        baseUrl: proxy.url,
        apiKey: api.tenant.key,
        projectId: api.tenant.projectId,
      });
      const agent = await platform.agents.create({ name: "Echo", model: "builtin/echo" });
      const session = await platform.sessions.create({ agent: agent.id });
      await platform.sessions.send(session.id, "hello");
      proxy.seen.length = 0;
      proxy.inject({ status: 503 }, { status: 429, headers: { "retry-after": "0" } });
      const seen: SessionLogEvent[] = [];
      for await (const e of platform.sessions.follow(session.id, {
        until: (e) => e.type === "session.status_idle",
        signal: AbortSignal.timeout(20_000),
      })) {
        seen.push(e);
      }
      expect(seen[0]).toMatchObject({ seq: 1, type: "user.message" });
      expect(proxy.seen.map((r) => r.path.split("?")[0]!.endsWith("/events/stream"))).toEqual([true, true, true]);
    } finally {
      await proxy.close();
    }
  });

  it("ends quietly when its signal aborts", async () => {
    const platform = new AgentPlatform({ baseUrl: api.url, apiKey: api.tenant.key });
    const agent = await platform.agents.create({ name: "Quiet", model: "builtin/echo" });
    const session = await platform.sessions.create({ agent: agent.id });
    const controller = new AbortController();
    const seen: SessionLogEvent[] = [];
    setTimeout(() => controller.abort(), 300);
    for await (const e of platform.sessions.follow(session.id, { signal: controller.signal })) seen.push(e);
    expect(seen).toEqual([]);
  });

  it("throws API errors that retrying cannot fix", async () => {
    const platform = new AgentPlatform({ baseUrl: api.url, apiKey: api.tenant.key });
    const follow = platform.sessions.follow("sess_missing");
    await expect(follow.next()).rejects.toMatchObject({ status: 404, code: "session.not_found" });
  });
});
