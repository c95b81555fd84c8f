import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { expectGapFree, getSession, type LogEntry, types, waitForIdle, waitForLog, waitUntil } from "./loop-helpers.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let mcp: TestMcpServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({
    role: "all",
    env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, WORKER_MAX_MODEL_CALLS: "3" },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await mcp?.close();
});
beforeEach(() => {
  fake.reset();
  mcp.toolCalls.length = 0;
  mcp.notes.length = 0;
});

const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");
// biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
const toolMessages = (request: FakeRequest) => (request.body.messages as any[]).filter((m) => m.role === "tool");
const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);

const LOOKUP_ORDER = {
  type: "custom",
  name: "lookup_order",
  description: "Looks an order up in the shop",
  inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
};

async function start(agentExtra: Record<string, unknown>, text: string) {
  const agent = await createAgent(t, t.tenant, { model: MODEL, ...agentExtra });
  return newSession(t, t.tenant, { agent: agent.id, events: [message(text)] });
}

describe("tool calls", () => {
  it("runs a built-in tool and feeds its result to the next model call", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "artifact_write", arguments: { name: "report.md", content: "# Report" } }] },
      { text: "Saved the report." },
    );
    const session = await start({ tools: ["artifact_write"] }, "write a report");
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.tool_use",
      "agent.usage",
      "agent.tool_result",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expectGapFree(log);
    const use = log[2];
    expect(use).toMatchObject({ name: "artifact_write", input: { name: "report.md", content: "# Report" } });
    expect(use.requiresConfirmation).toBeUndefined();
    expect(log[4]).toMatchObject({ toolUseId: use.id, isError: false });
    expect(log[4].content[0].type).toBe("text");
    expect(log[5].content).toEqual([{ type: "text", text: "Saved the report." }]);
    expect(log[7].stopReason).toBe("end_turn");
    expect(log[3]).toMatchObject({ model: MODEL, inputTokens: expect.any(Number), outputTokens: expect.any(Number) });

    // The second call carries the tool call under the tool-use event id, and its result.
    const second = chatCalls()[1]!;
    expect(toolMessages(second)).toEqual([expect.objectContaining({ tool_call_id: use.id })]);
    const artifacts = await t.http.get(`${t.tenant.base}/sessions/${session.id}/artifacts`).set(t.tenant.auth);
    expect(artifacts.status).toBe(200);
    expect(JSON.stringify(artifacts.body)).toContain("report.md");
  });

  it("answers an unknown tool name with an error result", async () => {
    fake.enqueue({ toolCalls: [{ name: "no_such_tool", arguments: {} }] }, { text: "Sorry." });
    const session = await start({ tools: ["artifact_write"] }, "go");
    const log = await waitForIdle(t, t.tenant, session.id);
    const use = byType(log, "agent.tool_use")[0];
    expect(use.name).toBe("no_such_tool");
    const result = byType(log, "agent.tool_result")[0];
    expect(result).toMatchObject({ toolUseId: use.id, isError: true });
    expect(result.content[0].text).toContain('Unknown tool "no_such_tool"');
    expect(log.at(-1).stopReason).toBe("end_turn");
  });

  it("stops with max_turns at the cap on model calls per turn", async () => {
    const call = { toolCalls: [{ name: "artifact_write", arguments: { name: "a.txt", content: "x" } }] };
    fake.enqueue(call, call, call, call);
    const session = await start({ tools: ["artifact_write"] }, "loop forever");
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(byType(log, "agent.usage")).toHaveLength(3);
    expect(byType(log, "agent.tool_result")).toHaveLength(3);
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "max_turns" });
    expect(chatCalls()).toHaveLength(3);
    expect((await getSession(t, t.tenant, session.id)).stopReason).toBe("max_turns");
  });
});

describe("custom tools answered at once", () => {
  it("accepts a custom tool's result sent as soon as its use is in the log, before requires_action", async () => {
    // One reply asks for a slow MCP tool and a custom tool: the custom tool use is in the log while the MCP tool runs,
    // and the requires_action that lists it comes after. A client answering on agent.custom_tool_use is not refused.
    fake.enqueue(
      {
        toolCalls: [
          { name: "notes__slow", arguments: { ms: 1_500 } },
          { name: "lookup_order", arguments: { orderId: "42" } },
        ],
      },
      { text: "Your order has shipped." },
    );
    const session = await start(
      {
        mcpServers: [{ name: "notes", url: mcp.url }],
        toolPermissions: { notes__slow: "always_allow" },
        tools: [LOOKUP_ORDER],
      },
      "where is order 42?",
    );
    const seen = await waitForLog(t, t.tenant, session.id, "the custom tool use", (log) =>
      log.some((e) => e.type === "agent.custom_tool_use"),
    );
    expect(seen.some((e) => e.type === "session.status_idle")).toBe(false);
    const use = byType(seen, "agent.custom_tool_use")[0];
    const res = await postEvents(t, t.tenant, session.id, [
      { type: "user.custom_tool_result", customToolUseId: use.id, content: [{ type: "text", text: "shipped" }] },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    // Answered twice: refused as before.
    const again = await postEvents(t, t.tenant, session.id, [
      { type: "user.custom_tool_result", customToolUseId: use.id, content: [{ type: "text", text: "again" }] },
    ]);
    expect(again.status).toBe(409);
    const log = await waitForLog(t, t.tenant, session.id, "the turn's end", (l) =>
      l.some((e) => e.type === "session.status_idle" && e.stopReason === "end_turn"),
    );
    expect(byType(log, "agent.message").at(-1)).toMatchObject({
      content: [{ type: "text", text: "Your order has shipped." }],
    });
    expect(toolMessages(chatCalls()[1]!)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tool_call_id: use.id, content: expect.stringContaining("shipped") }),
      ]),
    );
    expectGapFree(log);
  });
});

describe("confirmations", () => {
  const notes = () => ({ mcpServers: [{ name: "notes", url: mcp.url }] });

  it("pauses an MCP tool (always_ask by default) and runs it once allowed", async () => {
    fake.enqueue({ toolCalls: [{ name: "notes__write_note", arguments: { text: "buy milk" } }] }, { text: "Noted." });
    const session = await start(notes(), "remember to buy milk");
    let log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.mcp_tool_use",
      "agent.usage",
      "session.status_idle",
    ]);
    const use = log[2];
    expect(use).toMatchObject({
      serverName: "notes",
      name: "write_note",
      input: { text: "buy milk" },
      requiresConfirmation: true,
    });
    const pending = [{ toolUseId: use.id, kind: "confirmation", name: "notes__write_note" }];
    expect(log[4]).toMatchObject({ stopReason: "requires_action", pendingActions: pending });
    expect(await getSession(t, t.tenant, session.id)).toMatchObject({
      status: "idle",
      stopReason: "requires_action",
      pendingActions: pending,
    });
    expect(mcp.toolCalls).toEqual([]);

    const res = await postEvents(t, t.tenant, session.id, [
      { type: "user.tool_confirmation", toolUseId: use.id, result: "allow" },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    log = await waitForIdle(t, t.tenant, session.id, 2);
    expect(types(log).slice(5)).toEqual([
      "user.tool_confirmation",
      "session.status_running",
      "agent.mcp_tool_result",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expectGapFree(log);
    expect(log[7]).toMatchObject({
      toolUseId: use.id,
      isError: false,
      content: [{ type: "text", text: "saved note 1" }],
    });
    expect(log.at(-1).stopReason).toBe("end_turn");
    expect(mcp.notes).toEqual(["buy milk"]);
    expect(await getSession(t, t.tenant, session.id)).toMatchObject({ stopReason: "end_turn", pendingActions: [] });
  });

  it("feeds a denial back to the model as an error result and goes on", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "notes__write_note", arguments: { text: "secret" } }] },
      { text: "Understood." },
    );
    const session = await start(notes(), "note this");
    const first = await waitForIdle(t, t.tenant, session.id);
    const use = byType(first, "agent.mcp_tool_use")[0];
    await postEvents(t, t.tenant, session.id, [
      { type: "user.tool_confirmation", toolUseId: use.id, result: "deny", denyMessage: "Not in this meeting." },
    ]);
    const log = await waitForIdle(t, t.tenant, session.id, 2);
    const result = byType(log, "agent.mcp_tool_result")[0];
    expect(result).toMatchObject({
      toolUseId: use.id,
      isError: true,
      content: [{ type: "text", text: "Not in this meeting." }],
    });
    expect(mcp.toolCalls).toEqual([]);
    expect(toolMessages(chatCalls()[1]!)).toEqual([
      expect.objectContaining({ tool_call_id: use.id, content: expect.stringContaining("Not in this meeting.") }),
    ]);
    expect(log.at(-1).stopReason).toBe("end_turn");
  });

  it("honours toolPermissions: always_allow on an MCP tool, always_ask on a built-in one", async () => {
    fake.enqueue(
      {
        toolCalls: [
          { name: "notes__add", arguments: { a: 2, b: 3 } },
          { name: "artifact_write", arguments: { name: "sum.txt", content: "5" } },
        ],
      },
      { text: "Done." },
    );
    const session = await start(
      {
        ...notes(),
        tools: ["artifact_write"],
        toolPermissions: { notes__add: "always_allow", artifact_write: "always_ask" },
      },
      "add and save",
    );
    const log = await waitForIdle(t, t.tenant, session.id);
    const [add] = byType(log, "agent.mcp_tool_use");
    const [write] = byType(log, "agent.tool_use");
    expect(add.requiresConfirmation).toBeUndefined();
    expect(write.requiresConfirmation).toBe(true);
    // The allowed tool ran at once; the other one waits.
    expect(byType(log, "agent.mcp_tool_result")[0]).toMatchObject({ toolUseId: add.id, isError: false });
    expect(log.at(-1)).toMatchObject({
      stopReason: "requires_action",
      pendingActions: [{ toolUseId: write.id, kind: "confirmation", name: "artifact_write" }],
    });
    expect(mcp.toolCalls).toEqual([{ name: "add", arguments: { a: 2, b: 3 } }]);
  });

  it("waits until every pending confirmation is answered", async () => {
    fake.enqueue(
      {
        toolCalls: [
          { name: "notes__write_note", arguments: { text: "one" } },
          { name: "notes__write_note", arguments: { text: "two" } },
        ],
      },
      { text: "Both handled." },
    );
    const session = await start(notes(), "two notes");
    const first = await waitForIdle(t, t.tenant, session.id);
    const [one, two] = byType(first, "agent.mcp_tool_use");
    expect(first.at(-1).pendingActions.map((p: { toolUseId: string }) => p.toolUseId)).toEqual([one.id, two.id]);

    await postEvents(t, t.tenant, session.id, [{ type: "user.tool_confirmation", toolUseId: one.id, result: "allow" }]);
    // Still waiting, now only on the second one; nothing ran yet.
    await waitUntil("pending actions to shrink", async () => {
      const record = await getSession(t, t.tenant, session.id);
      return record.pendingActions.length === 1 ? record : undefined;
    });
    const record = await getSession(t, t.tenant, session.id);
    expect(record).toMatchObject({ status: "idle", stopReason: "requires_action" });
    expect(record.pendingActions).toEqual([{ toolUseId: two.id, kind: "confirmation", name: "notes__write_note" }]);
    expect(mcp.toolCalls).toEqual([]);

    await postEvents(t, t.tenant, session.id, [{ type: "user.tool_confirmation", toolUseId: two.id, result: "deny" }]);
    const log = await waitForIdle(t, t.tenant, session.id, 2);
    const results = byType(log, "agent.mcp_tool_result");
    expect(results.map((r) => [r.toolUseId, r.isError])).toEqual([
      [one.id, false],
      [two.id, true],
    ]);
    expect(mcp.notes).toEqual(["one"]);
    expect(log.at(-1).stopReason).toBe("end_turn");
    expectGapFree(log);
  });
});

describe("custom tools", () => {
  it("pauses on agent.custom_tool_use and resumes with user.custom_tool_result", async () => {
    fake.enqueue(
      { toolCalls: [{ name: "lookup_order", arguments: { orderId: "42" } }] },
      { text: "Your order has shipped." },
    );
    const session = await start(
      {
        tools: [LOOKUP_ORDER],
      },
      "where is order 42?",
    );
    const first = await waitForIdle(t, t.tenant, session.id);
    const use = byType(first, "agent.custom_tool_use")[0];
    expect(use).toMatchObject({ name: "lookup_order", input: { orderId: "42" } });
    expect(first.at(-1)).toMatchObject({
      stopReason: "requires_action",
      pendingActions: [{ toolUseId: use.id, kind: "custom_tool", name: "lookup_order" }],
    });

    const res = await postEvents(t, t.tenant, session.id, [
      { type: "user.custom_tool_result", customToolUseId: use.id, content: [{ type: "text", text: "shipped" }] },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const log = await waitForIdle(t, t.tenant, session.id, 2);
    expect(types(log).slice(first.length)).toEqual([
      "user.custom_tool_result",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(toolMessages(chatCalls()[1]!)).toEqual([
      expect.objectContaining({ tool_call_id: use.id, content: expect.stringContaining("shipped") }),
    ]);
    expect(log.at(-1).stopReason).toBe("end_turn");
  });
});
