import { AgentPlatform, type SessionLogEvent, type SessionStatusIdleEvent } from "@agent-platform/sdk";
import { SessionLogEventSchema } from "@agent-platform/sdk/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let platform: AgentPlatform;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
  platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

/** Every entry is described by its type's schema, field for field (nothing the contract does not know). */
function expectTyped(log: SessionLogEvent[]) {
  for (const entry of log) expect(SessionLogEventSchema.parse(entry)).toEqual(entry);
  expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => log[0]!.seq + i));
}

async function wholeLog(sessionId: string): Promise<SessionLogEvent[]> {
  const log: SessionLogEvent[] = [];
  for await (const entry of platform.sessions.listEvents(sessionId, { limit: 2 })) log.push(entry);
  return log;
}

describe("sessions through the SDK", () => {
  it("sends a string, waits for the idle entry and reads the typed log across pages", async () => {
    const agent = await platform.agents.create({ name: "Echo", model: "builtin/echo" });
    const session = await platform.sessions.create({ agent: agent.id });
    const ack = await platform.sessions.send(session.id, "ping");
    expect(ack.events[0]).toMatchObject({ type: "user.message", duplicate: false, idempotencyKey: expect.any(String) });
    const idle: SessionStatusIdleEvent = await platform.sessions.waitForIdle(session.id, {
      afterSeq: ack.events[0]!.seq,
      timeout: 20_000,
    });
    expect(idle).toMatchObject({ type: "session.status_idle", stopReason: "end_turn" });
    // Without afterSeq: the session is idle and its last entry says so.
    expect(await platform.sessions.waitForIdle(session.id)).toEqual(idle);

    const log = await wholeLog(session.id);
    expect(log.map((e) => e.type)).toEqual([
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expectTyped(log);
    const reply = log.find((e) => e.type === "agent.message");
    if (reply?.type !== "agent.message") throw new Error("no reply");
    expect(reply.content).toEqual([{ type: "text", text: "ping" }]);
  });

  it("sends the same idempotency keys when a batch is sent again", async () => {
    const agent = await platform.agents.create({ name: "Echo", model: "builtin/echo" });
    const session = await platform.sessions.create({ agent: agent.id });
    const event = { type: "user.message" as const, content: [{ type: "text" as const, text: "once" }] };
    const first = await platform.sessions.send(session.id, event);
    const key = first.events[0]!.idempotencyKey!;
    const again = await platform.sessions.send(session.id, { ...event, idempotencyKey: key });
    expect(again.events[0]).toMatchObject({ seq: first.events[0]!.seq, duplicate: true });
  });

  it("confirms a tool use (allow) and denies another with a message", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "artifact_write", arguments: { name: "a.txt", content: "A" } }] },
      { toolCalls: [{ name: "artifact_write", arguments: { name: "b.txt", content: "B" } }] },
      { text: "Done." },
    );
    const agent = await platform.agents.create({
      name: "Careful",
      model: MODEL,
      tools: ["artifact_write"],
      toolPermissions: { artifact_write: "always_ask" },
    });
    const session = await platform.sessions.create({
      agent: agent.id,
      events: [{ type: "user.message", content: [{ type: "text", text: "write two files" }] }],
    });
    const waiting = await platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });
    expect(waiting.stopReason).toBe("requires_action");
    const [first] = waiting.pendingActions ?? [];
    expect(first).toMatchObject({ kind: "confirmation", name: "artifact_write" });

    const allowed = await platform.sessions.confirmToolUse(session.id, first!.toolUseId, "allow");
    const second = await platform.sessions.waitForIdle(session.id, {
      afterSeq: allowed.events[0]!.seq,
      timeout: 20_000,
    });
    expect(second.stopReason).toBe("requires_action");
    const denied = await platform.sessions.confirmToolUse(session.id, second.pendingActions![0]!.toolUseId, "deny", {
      denyMessage: "Not b.txt",
    });
    const done = await platform.sessions.waitForIdle(session.id, { afterSeq: denied.events[0]!.seq, timeout: 20_000 });
    expect(done.stopReason).toBe("end_turn");

    const log = await wholeLog(session.id);
    expectTyped(log);
    const results = log.filter((e) => e.type === "agent.tool_result");
    expect(results.map((r) => r.type === "agent.tool_result" && [r.toolUseId, r.isError])).toEqual([
      [first!.toolUseId, false],
      [second.pendingActions![0]!.toolUseId, true],
    ]);
    expect(log.find((e) => e.type === "user.tool_confirmation" && e.result === "deny")).toMatchObject({
      denyMessage: "Not b.txt",
    });
    const uses = log.filter((e) => e.type === "agent.tool_use");
    expect(uses.every((u) => u.type === "agent.tool_use" && u.requiresConfirmation === true)).toBe(true);
  });

  it("answers a custom tool with a string", async () => {
    fake.enqueue({ toolCalls: [{ name: "lookup_order", arguments: { orderId: "42" } }] }, { text: "Shipped." });
    const agent = await platform.agents.create({
      name: "Shop",
      model: MODEL,
      tools: [
        {
          type: "custom",
          name: "lookup_order",
          description: "Looks an order up",
          inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
        },
      ],
    });
    const session = await platform.sessions.create({ agent: agent.id });
    const ack = await platform.sessions.send(session.id, "where is 42?");
    const waiting = await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });
    expect(waiting.stopReason).toBe("requires_action");
    const action = waiting.pendingActions![0]!;
    expect(action).toMatchObject({ kind: "custom_tool", name: "lookup_order" });

    const answered = await platform.sessions.answerCustomTool(session.id, action.toolUseId, "shipped yesterday");
    const done = await platform.sessions.waitForIdle(session.id, {
      afterSeq: answered.events[0]!.seq,
      timeout: 20_000,
    });
    expect(done.stopReason).toBe("end_turn");
    const log = await wholeLog(session.id);
    expectTyped(log);
    const use = log.find((e) => e.type === "agent.custom_tool_use");
    if (use?.type !== "agent.custom_tool_use") throw new Error("no custom tool use");
    expect(use.input).toEqual({ orderId: "42" });
    expect(log.find((e) => e.type === "user.custom_tool_result")).toMatchObject({
      customToolUseId: use.id,
      content: [{ type: "text", text: "shipped yesterday" }],
    });
  });

  it("logs session.error before an idle entry with stop reason error", async () => {
    fake.enqueue({ status: 400, body: { error: { message: "bad request", type: "invalid_request_error" } } });
    const agent = await platform.agents.create({ name: "Failing", model: MODEL });
    const session = await platform.sessions.create({ agent: agent.id });
    const ack = await platform.sessions.send(session.id, "fail please");
    const idle = await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });
    expect(idle.stopReason).toBe("error");
    const log = await wholeLog(session.id);
    expectTyped(log);
    expect(log.at(-2)).toMatchObject({ type: "session.error", error: { code: expect.any(String) } });
  });

  it("times out waitForIdle with a TimeoutError", async () => {
    fake.enqueue({ hang: true });
    const agent = await platform.agents.create({ name: "Slow", model: MODEL });
    const session = await platform.sessions.create({ agent: agent.id });
    const ack = await platform.sessions.send(session.id, "take your time");
    await expect(
      platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 300 }),
    ).rejects.toMatchObject({ name: "TimeoutError" });
    await platform.sessions.send(session.id, { type: "user.interrupt" });
    const idle = await platform.sessions.waitForIdle(session.id, { timeout: 20_000 });
    expect(idle.stopReason).toBe("interrupted");
  });
});
