import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession } from "./helpers.js";
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
});
