import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents, readLog } from "./helpers.js";
import { expectGapFree, types, waitForIdle, waitUntil } from "./loop-helpers.js";

// One worker slot: work requested while it is busy waits in the queue and runs as soon as the slot frees.
const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({
    role: "all",
    env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, WORKER_CONCURRENCY: "1" },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");

describe("the work queue", () => {
  it("runs work requested while every slot is busy once a slot frees", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue({ text: "slow answer", delayMs: 800 });
    const first = await newSession(t, t.tenant, { agent: agent.id, events: [message("first")] });
    await waitUntil("the first model call", async () => (chatCalls().length === 1 ? true : undefined));
    const others = await Promise.all(
      ["second", "third", "fourth"].map((text) =>
        newSession(t, t.tenant, { agent: agent.id, events: [message(text)] }),
      ),
    );
    for (const session of [first, ...others]) {
      const log = await waitForIdle(t, t.tenant, session.id);
      expect(log.at(-1).stopReason).toBe("end_turn");
      expectGapFree(log);
    }
    // One slot: each call started after the previous one was answered.
    expect(chatCalls()).toHaveLength(4);
    expect(chatCalls().every((r) => r.outcome === "completed")).toBe(true);
  });

  it("starts a turn in the process that ingested it while a slot is free, and through the queue when none is", async () => {
    const notified: string[] = [];
    const unsubscribe = t.platform.ctx.listener.subscribe("jobs", {
      onNotification: (payload) => notified.push(payload),
    });
    try {
      const agent = await createAgent(t, t.tenant, { model: MODEL });
      const here = await newSession(t, t.tenant, { agent: agent.id });
      const posted = await postEvents(t, t.tenant, here.id, [message("hello")]);
      expect(posted.status).toBe(202);
      // The statement that claimed the turn also opened it: the message and `session.status_running` are committed
      // together, before the answer to the POST.
      expect(posted.body.events).toEqual([expect.objectContaining({ seq: 1, type: "user.message", duplicate: false })]);
      expect(posted.body.session).toMatchObject({ status: "running", lastSeq: 2 });
      expect(types(await readLog(t, t.tenant, here.id)).slice(0, 2)).toEqual([
        "user.message",
        "session.status_running",
      ]);
      const log = await waitForIdle(t, t.tenant, here.id);
      expect(types(log)).toEqual([
        "user.message",
        "session.status_running",
        "agent.message",
        "agent.usage",
        "session.status_idle",
      ]);
      // Claimed by the ingestion statement itself: no notification asked any runner to claim it.
      expect(notified.filter((p) => p.endsWith(`|${here.id}`))).toEqual([]);

      // The one slot busy with a slow turn: the next session's turn goes through the queue (notified), then runs.
      fake.enqueue({ text: "slow answer", delayMs: 600 });
      const busy = await newSession(t, t.tenant, { agent: agent.id });
      await postEvents(t, t.tenant, busy.id, [message("slow")]);
      await waitUntil("the slow model call", async () =>
        chatCalls().some((r) => r.outcome === "pending") ? true : undefined,
      );
      const queued = await newSession(t, t.tenant, { agent: agent.id });
      const queuedPost = await postEvents(t, t.tenant, queued.id, [message("queued")]);
      // Through the queue the turn is opened by the pass that claims it, later.
      expect(queuedPost.body.session).toMatchObject({ status: "idle", lastSeq: 1 });
      for (const session of [busy, queued]) {
        const entries = await waitForIdle(t, t.tenant, session.id);
        expect(entries.at(-1).stopReason).toBe("end_turn");
        expectGapFree(entries);
      }
      expect(notified.filter((p) => p.endsWith(`|${queued.id}`)).length).toBeGreaterThan(0);
    } finally {
      unsubscribe();
    }
  });

  it("runs one turn at a time per session, however fast messages arrive", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const session = await newSession(t, t.tenant, { agent: agent.id });
    for (let i = 0; i < 5; i++) {
      const res = await postEvents(t, t.tenant, session.id, [message(`message ${i}`)]);
      expect(res.status).toBe(202);
    }
    const log = await waitUntil("every message answered", async () => {
      const entries = await waitForIdle(t, t.tenant, session.id);
      const last = entries.at(-1);
      const lastMessage = entries.findLastIndex((e) => e.type === "user.message");
      return last.type === "session.status_idle" && lastMessage < entries.length - 1 ? entries : undefined;
    });
    expectGapFree(log);
    // Status entries alternate: never two turns open at once.
    const statuses = types(log).filter((type) => type.startsWith("session.status_"));
    for (let i = 0; i < statuses.length; i++) {
      expect(statuses[i]).toBe(i % 2 === 0 ? "session.status_running" : "session.status_idle");
    }
  });
});
