import { AgentPlatform, type SessionLogEvent } from "@agent-platform/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDirectives } from "../../src/models/script-model.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// `builtin/script` on a default install (no provider configured): its directives drive real turns of the loop.
let t: TestApp;
let platform: AgentPlatform;
beforeAll(async () => {
  t = await startTestApp({ role: "all" });
  platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key });
});
afterAll(async () => {
  await t?.close();
});

async function log(sessionId: string): Promise<SessionLogEvent[]> {
  const entries: SessionLogEvent[] = [];
  for await (const entry of platform.sessions.listEvents(sessionId)) entries.push(entry);
  return entries;
}

const texts = (entries: SessionLogEvent[]) =>
  entries.flatMap((e) => (e.type === "agent.message" ? [e.content.map((p) => p.text).join("")] : []));

const LOOKUP = {
  type: "custom" as const,
  name: "lookup_order",
  description: "Looks an order up",
  inputSchema: { type: "object", properties: { orderId: { type: "string" } } },
};

describe("builtin/script", () => {
  it("calls a custom tool, waits for its result, then answers with it", async () => {
    const agent = await platform.agents.create({ name: "Shop", model: "builtin/script", tools: [LOOKUP] });
    const session = await platform.sessions.create({ agent: agent.id });
    const ack = await platform.sessions.send(session.id, 'Where is order 42?\n/call lookup_order {"orderId":"42"}');
    const waiting = await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });
    expect(waiting.stopReason).toBe("requires_action");
    const use = (await log(session.id)).find((e) => e.type === "agent.custom_tool_use");
    if (use?.type !== "agent.custom_tool_use") throw new Error("no custom tool use");
    expect(use).toMatchObject({ name: "lookup_order", input: { orderId: "42" } });

    const answer = await platform.sessions.answerCustomTool(session.id, use.id, "Order 42 shipped yesterday");
    const idle = await platform.sessions.waitForIdle(session.id, { afterSeq: answer.events[0]!.seq, timeout: 20_000 });
    expect(idle.stopReason).toBe("end_turn");
    expect(texts(await log(session.id))).toEqual(["Order 42 shipped yesterday"]);
  });

  it("asks for confirmation of an always_ask tool, runs it once allowed, and says what the script says", async () => {
    const agent = await platform.agents.create({
      name: "Writer",
      model: "builtin/script",
      tools: ["artifact_write"],
      toolPermissions: { artifact_write: "always_ask" },
    });
    const session = await platform.sessions.create({ agent: agent.id });
    const script = '/call artifact_write {"name":"report.md","content":"# Report"}\n/say Saved the report';
    const ack = await platform.sessions.send(session.id, script);
    const waiting = await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });
    expect(waiting.stopReason).toBe("requires_action");
    const action = waiting.pendingActions?.[0];
    expect(action).toMatchObject({ kind: "confirmation", name: "artifact_write" });

    const allowed = await platform.sessions.confirmToolUse(session.id, action!.toolUseId, "allow");
    const idle = await platform.sessions.waitForIdle(session.id, { afterSeq: allowed.events[0]!.seq, timeout: 20_000 });
    expect(idle.stopReason).toBe("end_turn");
    const entries = await log(session.id);
    expect(entries.find((e) => e.type === "agent.tool_result")).toMatchObject({ isError: false });
    expect(texts(entries)).toEqual(["Saved the report"]);
    const artifacts = await platform.artifacts.list(session.id);
    expect(artifacts.data.map((a) => a.name)).toEqual(["report.md"]);
  });

  it("fails the turn on /fail with its message, and echoes a message without directives", async () => {
    const agent = await platform.agents.create({ name: "Failing", model: "builtin/script" });
    const session = await platform.sessions.create({ agent: agent.id });
    let ack = await platform.sessions.send(session.id, "/fail The provider is down");
    let idle = await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });
    expect(idle.stopReason).toBe("error");
    const error = (await log(session.id)).find((e) => e.type === "session.error");
    expect(error).toMatchObject({ error: { message: expect.stringContaining("The provider is down") } });

    ack = await platform.sessions.send(session.id, "just text");
    idle = await platform.sessions.waitForIdle(session.id, { afterSeq: ack.events[0]!.seq, timeout: 20_000 });
    expect(idle.stopReason).toBe("end_turn");
    expect(texts(await log(session.id))).toEqual(["just text"]);
  });

  it("reads directives line by line, ignores other lines and bounds /wait", () => {
    expect(parseDirectives('Hello\n/call a {"x":1}\n/call b\n/wait 999999\n/say ok\nnot /say this')).toEqual([
      { kind: "call", name: "a", input: { x: 1 } },
      { kind: "call", name: "b", input: {} },
      { kind: "wait", ms: 60_000 },
      { kind: "say", text: "ok" },
    ]);
    expect(parseDirectives("/call a {broken")).toEqual([
      { kind: "call", name: "a", input: "{broken", inputError: "/call a: the input is not JSON" },
    ]);
  });
});
