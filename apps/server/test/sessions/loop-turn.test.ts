import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents, readLog } from "./helpers.js";
import { expectGapFree, getSession, types, waitForIdle } from "./loop-helpers.js";

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

describe("a plain turn", () => {
  it("runs builtin/echo: running, message, usage, idle end_turn", async () => {
    const agent = await createAgent(t, t.tenant);
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("hello there")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expectGapFree(log);
    expect(log[2].content).toEqual([{ type: "text", text: "hello there" }]);
    expect(log[3]).toMatchObject({ model: "builtin/echo", inputTokens: expect.any(Number), outputTokens: 2 });
    expect(log[4].stopReason).toBe("end_turn");
    const record = await getSession(t, t.tenant, session.id);
    expect(record).toMatchObject({ status: "idle", stopReason: "end_turn", pendingActions: [] });
  });

  it("opens a turn that starts in place with its message, once whatever replays arrive, only when the loop would", async () => {
    const agent = await createAgent(t, t.tenant);
    const session = await newSession(t, t.tenant, { agent: agent.id });
    // The statement that claimed the turn for this process also opened it: the message and `session.status_running`
    // are committed together, before the answer to the POST.
    const first = await postEvents(t, t.tenant, session.id, [message("hello", "key-1")]);
    expect(first.status).toBe(202);
    expect(first.body.events).toEqual([expect.objectContaining({ seq: 1, type: "user.message", duplicate: false })]);
    expect(first.body.session).toMatchObject({ status: "running", stopReason: null, lastSeq: 2 });
    expect(types(await readLog(t, t.tenant, session.id)).slice(0, 2)).toEqual([
      "user.message",
      "session.status_running",
    ]);
    // Replays, while the turn runs or once it is over, are acknowledged as the original and write nothing.
    const replay = await postEvents(t, t.tenant, session.id, [message("hello", "key-1")]);
    expect(replay.body.events).toEqual([expect.objectContaining({ seq: 1, duplicate: true })]);
    await waitForIdle(t, t.tenant, session.id);
    const late = await postEvents(t, t.tenant, session.id, [message("hello", "key-1")]);
    expect(late.body.events).toEqual([expect.objectContaining({ seq: 1, duplicate: true })]);
    const turn = ["user.message", "session.status_running", "agent.message", "agent.usage", "session.status_idle"];
    expect(types(await readLog(t, t.tenant, session.id))).toEqual(turn);

    // A message and an interrupt together: the loop's first step is the interrupt, which opens no turn, so neither
    // does the ingestion that claims it.
    const other = await newSession(t, t.tenant, { agent: agent.id });
    const stopped = await postEvents(t, t.tenant, other.id, [message("never mind"), { type: "user.interrupt" }]);
    expect(stopped.body.session).toMatchObject({ status: "idle", lastSeq: 2 });
    const log = await waitForIdle(t, t.tenant, other.id);
    expect(types(log)).toEqual(["user.message", "user.interrupt", "session.status_idle"]);
    expect(log.at(-1).stopReason).toBe("interrupted");
  });
});
