import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents, readLog } from "./helpers.js";
import { expectGapFree, getSession, type LogEntry, waitUntil } from "./loop-helpers.js";

// The session log's one writer (`sessions/log/`) under contention: user events ingested concurrently over HTTP, the
// loop's fenced commits and the creation of child sessions (background delegations) all append to one session, and
// its `seq` must stay 1, 2, 3… with every entry written once.

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

type ChatMessage = { role: string };
const lastRole = (request: FakeRequest) => (request.body.messages as ChatMessage[]).at(-1)?.role;

describe("one session written from everywhere at once", () => {
  it("keeps seq gap-free across concurrent ingestion, loop commits and child-session creation", async () => {
    const sub = await createAgent(t, t.tenant, { name: "Worker", model: "builtin/echo" });
    const coord = await createAgent(t, t.tenant, {
      name: "Coordinator",
      model: "openai-compatible/fake-model",
      multiagent: { type: "coordinator", roster: [{ agentId: sub.id, role: "worker", mode: "background" }] },
    });
    // Every pass that starts on new user messages delegates once (a child session is created), then ends its turn.
    fake.respondWith((request) =>
      lastRole(request) === "user"
        ? { toolCalls: [{ name: "delegate_to_worker", arguments: { task: "look into it" } }] }
        : { text: "Delegated." },
    );
    const session = await newSession(t, t.tenant, { agent: coord.id, events: [message("first")] });
    const posted = Array.from({ length: 12 }, (_, i) => `concurrent ${i}`);
    const answers = await Promise.all(posted.map((text) => postEvents(t, t.tenant, session.id, [message(text)])));
    for (const answer of answers) expect(answer.status).toBe(202);

    // Settled: the log ends with an idle entry that follows the last user message.
    const log = await waitUntil("the coordinator to settle after every message", async () => {
      const entries: LogEntry[] = await readLog(t, t.tenant, session.id);
      const lastMessage = entries.findLastIndex((e) => e.type === "user.message");
      const last = entries.at(-1);
      return last?.type === "session.status_idle" && lastMessage < entries.length - 1 ? entries : undefined;
    });
    expectGapFree(log);
    const texts = log.filter((e) => e.type === "user.message").map((e) => e.content[0].text);
    expect(texts.sort()).toEqual(["first", ...posted].sort());
    // Each ingestion acknowledged the seq its entry has in the log.
    for (const answer of answers) {
      const [ack] = answer.body.events;
      expect(log.find((e) => e.seq === ack.seq)?.id).toBe(ack.id);
    }
    expect((await getSession(t, t.tenant, session.id)).lastSeq).toBe(log.length);

    // Every delegation created one child session, with its own gap-free log that its parent knows.
    const started = log
      .filter((e) => e.type === "agent.tool_result" && !e.isError)
      .map((e) => JSON.parse(e.content[0].text).childSessionId as string);
    expect(started.length).toBeGreaterThan(0);
    expect(new Set(started).size).toBe(started.length);
    for (const childId of started) {
      const child = await getSession(t, t.tenant, childId);
      expect(child.parentSessionId).toBe(session.id);
      const childLog = await waitUntil(`child ${childId} to settle`, async () => {
        const entries: LogEntry[] = await readLog(t, t.tenant, childId);
        return entries.at(-1)?.type === "session.status_idle" ? entries : undefined;
      });
      expectGapFree(childLog);
      expect(childLog[0]).toMatchObject({ type: "user.message", content: [{ type: "text", text: "look into it" }] });
    }
  });
});
