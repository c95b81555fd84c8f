import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAI,
  type FakeOpenAIOptions,
  type FakeReply,
  type FakeRequest,
  startFakeOpenAI,
} from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { expectGapFree, type LogEntry, waitForIdle } from "./loop-helpers.js";

// Long sessions: a small-window model behind the fake, which refuses any prompt over its window with the real
// providers' error bodies (docs/sessions.md, "Long sessions").
const WINDOW = 6_000;
let t: TestApp;
let fake: FakeOpenAI;
let mcp: TestMcpServer;
const fakeOptions: FakeOpenAIOptions = { contextWindow: WINDOW, overflowStyle: "openai" };

beforeAll(async () => {
  fake = await startFakeOpenAI(fakeOptions);
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await mcp?.close();
});
beforeEach(() => {
  fake.reset();
  fakeOptions.overflowStyle = "openai";
  fakeOptions.contextWindow = WINDOW;
});

const words = (n: number, word = "lorem") => Array.from({ length: n }, (_, i) => `${word}${i % 10}`).join(" ");
// biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
const messagesOf = (request: FakeRequest) => request.body.messages as any[];
const isSummaryCall = (request: FakeRequest) =>
  String(messagesOf(request).at(-1)?.content ?? "").startsWith("Summarise this conversation");
const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");
const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);

/** A user message makes the model call `docs__echo` with `size` words; the tool result makes it answer. */
function agentScript(size: number) {
  return (request: FakeRequest): FakeReply => {
    if (isSummaryCall(request)) return { text: "Summary: the user asked for echoes; every echo succeeded." };
    const last = messagesOf(request).at(-1);
    if (last?.role === "tool") return { text: "Echoed." };
    return { toolCalls: [{ name: "docs__echo", arguments: { text: words(size) } }] };
  };
}

async function echoAgent(model: unknown) {
  return createAgent(t, t.tenant, {
    model,
    mcpServers: [{ name: "docs", url: mcp.url }],
    toolPermissions: { docs__echo: "always_allow" },
  });
}

async function runTurns(sessionId: string, from: number, to: number): Promise<LogEntry[]> {
  let log: LogEntry[] = [];
  for (let turn = from; turn <= to; turn++) {
    if (turn > 1) await postEvents(t, t.tenant, sessionId, [message(`turn ${turn}`)]);
    log = await waitForIdle(t, t.tenant, sessionId, turn, 60_000);
  }
  return log;
}

describe("long sessions", () => {
  it("runs 100 turns with large tool results on a small window: every turn ends, compactions in the log", async () => {
    fake.respondWith(agentScript(700));
    const agent = await echoAgent({ id: "openai-compatible/fake-model", contextWindow: WINDOW });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("turn 1")] });
    const log = await runTurns(session.id, 1, 100);
    const idles = byType(log, "session.status_idle");
    expect(idles).toHaveLength(100);
    expect(byType(log, "session.error")).toEqual([]);
    expect(idles.every((e) => e.stopReason === "end_turn")).toBe(true);
    const compactions = byType(log, "session.compaction");
    expect(compactions.length).toBeGreaterThan(5);
    expect(compactions[0]).toMatchObject({
      fromSeq: 1,
      reason: "threshold",
      usage: { model: "openai-compatible/fake-model" },
    });
    expect(compactions[1].toSeq).toBeGreaterThan(compactions[0].toSeq);
    // The log keeps every entry whole.
    expect(byType(log, "agent.mcp_tool_result")).toHaveLength(100);
    expectGapFree(log);
    // The model saw the newest summary rather than the whole history.
    const lastCall = chatCalls()
      .filter((r) => !isSummaryCall(r))
      .at(-1)!;
    const firstUser = messagesOf(lastCall).find((m) => m.role === "user");
    expect(String(firstUser.content)).toContain("[Summary of the earlier conversation]");
    // With the window declared, the provider's count of each call anchors the estimate: no call was ever refused.
    expect(chatCalls().filter((r) => r.status === 400)).toEqual([]);
  }, 300_000);

  it("counts compaction calls on the budgets like every model call (reserved, then settled)", async () => {
    fake.respondWith(agentScript(700));
    const tenant = await t.newTenant();
    const budget = async (meter: string, limit: number) => {
      const res = await t.http
        .post("/v1/budgets")
        .set(tenant.auth)
        .send({ scope: "workspace", meter, limit, action: "block", period: "total" });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const calls = await budget("model_calls", 1_000);
    const tokens = await budget("tokens", 10_000_000);
    const agent = await createAgent(t, tenant, {
      model: { id: "openai-compatible/fake-model", contextWindow: WINDOW },
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__echo: "always_allow" },
    });
    const session = await newSession(t, tenant, { agent: agent.id, events: [message("turn 1")] });
    let log: LogEntry[] = [];
    for (let turn = 1; turn <= 10; turn++) {
      if (turn > 1) await postEvents(t, tenant, session.id, [message(`turn ${turn}`)]);
      log = await waitForIdle(t, tenant, session.id, turn, 60_000);
    }
    const compactions = byType(log, "session.compaction");
    expect(compactions.length).toBeGreaterThan(0);
    const usages = [...byType(log, "agent.usage"), ...compactions.map((c) => c.usage)];
    const used = async (id: string) => (await t.http.get(`/v1/budgets/${id}`).set(tenant.auth)).body.used;
    expect(await used(calls)).toBe(usages.length);
    // Every call the provider answered; a refused one (over the window) used nothing and gave its reservation back.
    expect(await used(calls)).toBe(chatCalls().filter((r) => r.status === 200).length);
    expect(await used(tokens)).toBe(usages.reduce((sum, u) => sum + u.inputTokens + u.outputTokens, 0));
  }, 120_000);

  for (const style of ["openai", "vllm", "litellm", "ollama"] as const) {
    it(`recovers when the provider refuses a prompt as too long (${style})`, async () => {
      fakeOptions.overflowStyle = style;
      fake.respondWith(agentScript(1_500));
      // No window known to the platform (a model of this test's own: a window learned is remembered per model).
      const model = `refused-${style}`;
      const agent = await echoAgent(`openai-compatible/${model}`);
      const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("turn 1")] });
      const log = await runTurns(session.id, 1, 5);
      expect(byType(log, "session.error")).toEqual([]);
      expect(byType(log, "session.status_idle").every((e) => e.stopReason === "end_turn")).toBe(true);
      const calls = chatCalls().filter((r) => r.body.model === model);
      expect(calls.some((r) => r.status === 400)).toBe(true);
      expect(byType(log, "session.compaction").length).toBeGreaterThan(0);
    }, 120_000);
  }

  it("ends the turn of a message larger than the window with model.input_too_large; the next message works", async () => {
    fake.respondWith(agentScript(100));
    const agent = await echoAgent({ id: "openai-compatible/fake-model", contextWindow: WINDOW });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message(words(8_000, "huge"))] });
    let log = await waitForIdle(t, t.tenant, session.id, 1);
    const error = byType(log, "session.error")[0];
    expect(error.error.code).toBe("model.input_too_large");
    expect(error.error.message).toMatch(/context window of 6000 tokens/);
    expect(error.inputSeq).toBe(1);
    expect(log.at(-1).stopReason).toBe("error");

    await postEvents(t, t.tenant, session.id, [message("a short one")]);
    log = await waitForIdle(t, t.tenant, session.id, 2);
    expect(log.at(-1).stopReason).toBe("end_turn");
    const last = chatCalls().at(-1)!;
    expect(JSON.stringify(messagesOf(last))).toContain("This message was not read");
    expect(JSON.stringify(messagesOf(last))).not.toContain("huge1");
  });

  it("shows the model a 200 KB tool result cut, with a note, while the log keeps it whole", async () => {
    fakeOptions.contextWindow = undefined;
    fake.respondWith((request) =>
      messagesOf(request).at(-1)?.role === "tool"
        ? { text: "Read it." }
        : { toolCalls: [{ name: "docs__lorem", arguments: { words: 30_000 } }] },
    );
    // A model whose window nobody declared and no provider named.
    const agent = await createAgent(t, t.tenant, {
      model: "openai-compatible/window-unknown",
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__lorem: "always_allow" },
    });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("turn 1")] });
    const log = await waitForIdle(t, t.tenant, session.id, 1);
    const result = byType(log, "agent.mcp_tool_result")[0];
    expect(result.content[0].text.length).toBeGreaterThan(200_000);
    const toolMessage = messagesOf(chatCalls()[1]!).find((m) => m.role === "tool");
    expect(toolMessage.content.length).toBeLessThan(51_000);
    expect(toolMessage.content).toMatch(/\[Cut: the model is shown the first 50000 of \d+ characters/);
    expect(log.at(-1).stopReason).toBe("end_turn");
  });
});
