import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeReply, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { type LogEntry, waitForIdle } from "./loop-helpers.js";

// The compaction settings (docs/operating.md: COMPACTION_MODEL, COMPACTION_THRESHOLD) and what a compaction entry
// says (`tokensBefore`, `tokensAfter`), and a summarising call refused as too long (docs/sessions.md, "Long sessions").
const WINDOW = 6_000;
let fake: FakeOpenAI;
let mcp: TestMcpServer;
const apps: TestApp[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI({
    contextWindow: WINDOW,
    contextWindows: { "small-summariser": 1_500, "ollama-summariser": 1_500 },
    overflowStyles: { "ollama-summariser": "ollama" },
  });
  fake.respondWith(agentScript);
  mcp = await startMcpServer({ transport: "streamable" });
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await fake?.close();
  await mcp?.close();
});

async function app(env: Record<string, string>): Promise<TestApp> {
  const started = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, ...env } });
  apps.push(started);
  return started;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `lorem${i % 10}`).join(" ");
// biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
const messagesOf = (request: FakeRequest) => request.body.messages as any[];
const isSummaryCall = (request: FakeRequest) =>
  String(messagesOf(request).at(-1)?.content ?? "").startsWith("Summarise this conversation");
const callsOf = (model: string) =>
  fake.requests.filter((r) => r.path === "/v1/chat/completions" && r.body.model === model);
const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);

/** A user message makes the model echo 200 words through the MCP server; the result makes it answer. */
function agentScript(request: FakeRequest): FakeReply {
  if (isSummaryCall(request)) return { text: "Summary: the user asked for echoes; every echo succeeded." };
  if (messagesOf(request).at(-1)?.role === "tool") return { text: "Echoed." };
  return { toolCalls: [{ name: "docs__echo", arguments: { text: words(200) } }] };
}

/** Turns on a session of `model` (6,000-token window declared) until `done(log)`, at most `max`. */
async function turnsUntil(t: TestApp, model: string, done: (log: LogEntry[]) => boolean, max = 30) {
  const agent = await createAgent(t, t.tenant, {
    model: { id: `openai-compatible/${model}`, contextWindow: WINDOW },
    mcpServers: [{ name: "docs", url: mcp.url }],
    toolPermissions: { docs__echo: "always_allow" },
  });
  const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("turn 1")] });
  let log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
  for (let turn = 2; turn <= max && !done(log); turn++) {
    await postEvents(t, t.tenant, session.id, [message(`turn ${turn}`)]);
    log = await waitForIdle(t, t.tenant, session.id, turn, 60_000);
  }
  return { sessionId: session.id as string, log };
}

const compacted = (log: LogEntry[]) => byType(log, "session.compaction").length > 0;

describe("compaction settings", { timeout: 180_000 }, () => {
  it("COMPACTION_MODEL writes the summaries; COMPACTION_THRESHOLD decides when; the entry says the sizes", async () => {
    const half = await app({ COMPACTION_MODEL: "openai-compatible/summariser", COMPACTION_THRESHOLD: "0.5" });
    const { log } = await turnsUntil(half, "agent-half", compacted);
    const [compaction] = byType(log, "session.compaction");
    // Past half the window (3,000 tokens), well before the default 0.8 (4,800).
    expect(compaction.reason).toBe("threshold");
    expect(compaction.tokensBefore).toBeGreaterThan(0.5 * WINDOW);
    expect(compaction.tokensBefore).toBeLessThan(0.8 * WINDOW);
    // The summary was written by COMPACTION_MODEL, the turns by the agent's model.
    expect(compaction.usage.model).toBe("openai-compatible/summariser");
    expect(callsOf("summariser").every(isSummaryCall)).toBe(true);
    expect(callsOf("summariser")).toHaveLength(1);
    expect(callsOf("agent-half").some(isSummaryCall)).toBe(false);
    // `tokensBefore`: the prompt's size that passed the threshold, at least what the provider counted for the call
    // before it (the conversation only grew since). `tokensAfter`: the prompt's size the next call had, as estimated.
    const usages = byType(log, "agent.usage");
    const before = usages.filter((u) => u.seq < compaction.seq).at(-1);
    const after = usages.find((u) => u.seq > compaction.seq);
    expect(compaction.tokensBefore).toBeGreaterThanOrEqual(before.inputTokens);
    expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore / 2);
    // The provider counts at least as many tokens as the estimate (about 4 characters a token), and not twice as many.
    expect(after.inputTokens).toBeGreaterThanOrEqual(compaction.tokensAfter);
    expect(after.inputTokens).toBeLessThan(compaction.tokensAfter * 2);

    // With the default threshold (0.8), the same conversation is compacted later.
    const byDefault = await app({});
    const later = byType((await turnsUntil(byDefault, "agent-default", compacted)).log, "session.compaction")[0];
    expect(later.tokensBefore).toBeGreaterThan(0.8 * WINDOW);
    expect(later.usage.model).toBe("openai-compatible/agent-default");
  });

  it("a summarising call refused as too long, naming its window: remembered, the summary fits it, the turn goes on", async () => {
    const t = await app({ COMPACTION_MODEL: "openai-compatible/small-summariser" });
    const { log } = await turnsUntil(t, "agent-small", compacted);
    expect(byType(log, "session.error")).toEqual([]);
    expect(byType(log, "session.status_idle").every((e) => e.stopReason === "end_turn")).toBe(true);
    expect(byType(log, "session.compaction")[0].usage.model).toBe("openai-compatible/small-summariser");
    const summaries = callsOf("small-summariser");
    expect(summaries.map((r) => r.status)).toEqual([400, 200]);
    // The second attempt fitted the window the refusal named: text cut, output capped at a quarter of it.
    expect(summaries[1]!.body.max_tokens).toBe(375);
    expect(JSON.stringify(messagesOf(summaries[1]!)).length).toBeLessThan(
      JSON.stringify(messagesOf(summaries[0]!)).length,
    );
  });

  it("a summarising call refused as too long without a window named: the turn ends with model.context_overflow", async () => {
    const t = await app({ COMPACTION_MODEL: "openai-compatible/ollama-summariser" });
    const { log } = await turnsUntil(t, "agent-ollama", (l) => byType(l, "session.error").length > 0);
    const [error] = byType(log, "session.error");
    expect(error.error.code).toBe("model.context_overflow");
    expect(error.error.message).toMatch(/refused the prompt as too long/);
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "error" });
    expect(byType(log, "session.compaction")).toEqual([]);
  });
});
