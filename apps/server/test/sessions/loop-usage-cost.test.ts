import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, type FakeAnthropicRequest, startFakeAnthropic } from "../support/fake-anthropic.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession } from "./helpers.js";
import { getSession, type LogEntry, waitForIdle } from "./loop-helpers.js";

// Usage entries record cached and reasoning tokens and their cost; the session sums them. The Anthropic fake caches
// prompts as the API does (prefixes at `cache_control` markers, 1024 tokens at least) and reports it in its usage.
let t: TestApp;
let fake: FakeAnthropic;
let mcp: TestMcpServer;

const words = (n: number) => Array.from({ length: n }, (_, i) => `rule${i % 50}`).join(" ");
const TOOL_CALLS = 4;

beforeAll(async () => {
  fake = await startFakeAnthropic({
    reply: (request: FakeAnthropicRequest) => {
      const results = request.body.messages.filter((m: LogEntry) => m.role === "user").length - 1;
      return results < TOOL_CALLS
        ? { toolCalls: [{ name: "docs__echo", input: { text: `step ${results} ${words(30)}` } }] }
        : { text: "All steps done." };
    },
  });
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({ role: "all", env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await mcp?.close();
});

async function runTurn(model: unknown) {
  const agent = await createAgent(t, t.tenant, {
    model,
    system: `Follow these rules. ${words(1_200)}`,
    mcpServers: [{ name: "docs", url: mcp.url }],
    toolPermissions: { docs__echo: "always_allow" },
  });
  const from = fake.requests.length;
  const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("Do the steps.")] });
  const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
  expect(log.filter((e) => e.type === "session.error")).toEqual([]);
  return { log, session: await getSession(t, t.tenant, session.id), requests: fake.requests.slice(from) };
}

const usageEntries = (log: LogEntry[]) => log.filter((e) => e.type === "agent.usage");

describe("usage, prompt caching and cost", () => {
  it("records cached tokens and cost on every usage entry across a long turn, and sums them on the session", async () => {
    const { log, session, requests } = await runTurn("anthropic/claude-sonnet-4-5");
    const entries = usageEntries(log);
    expect(entries).toHaveLength(TOOL_CALLS + 1);
    // The calls were marked for the cache: the system prompt and the last message.
    for (const request of requests) {
      expect(request.body.system.at(-1).cache_control).toEqual({ type: "ephemeral" });
      expect(request.body.messages.at(-1).content.at(-1).cache_control).toEqual({ type: "ephemeral" });
    }
    // First call writes the prefix; every later call reads what the one before wrote and writes its new part.
    expect(entries[0].cacheReadInputTokens).toBe(0);
    expect(entries[0].cacheWriteInputTokens).toBeGreaterThan(1_200);
    for (let i = 1; i < entries.length; i++) {
      const before = entries[i - 1];
      expect(entries[i].cacheReadInputTokens).toBe(before.cacheReadInputTokens + before.cacheWriteInputTokens);
      expect(entries[i].cacheWriteInputTokens).toBeGreaterThan(0);
    }
    for (const entry of entries) {
      expect(entry.reasoningTokens).toBe(0);
      // claude-sonnet-4-5 in the catalogue: $3 input, $0.30 cache read, $3.75 cache write, $15 output per million.
      const uncached = entry.inputTokens - entry.cacheReadInputTokens - entry.cacheWriteInputTokens;
      expect(uncached).toBeGreaterThanOrEqual(0);
      const micro =
        uncached * 3 + entry.cacheReadInputTokens * 0.3 + entry.cacheWriteInputTokens * 3.75 + entry.outputTokens * 15;
      expect(entry.costUsd).toBe(Math.round(micro) / 1_000_000);
    }
    const total = (key: string) => entries.reduce((sum: number, e: LogEntry) => sum + e[key], 0);
    const cost = entries.reduce((sum: number, e: LogEntry) => sum + Math.round(e.costUsd * 1e6), 0) / 1e6;
    expect(session.usage).toEqual({
      inputTokens: total("inputTokens"),
      outputTokens: total("outputTokens"),
      cacheReadInputTokens: total("cacheReadInputTokens"),
      cacheWriteInputTokens: total("cacheWriteInputTokens"),
      reasoningTokens: 0,
      costUsd: cost,
    });
    // Most of a long turn's input is read from the cache.
    expect(session.usage.cacheReadInputTokens / session.usage.inputTokens).toBeGreaterThan(0.5);
  }, 90_000);

  it("records a null cost when the model's price is unknown, and the session's cost is then null", async () => {
    const { log, session } = await runTurn({ id: "anthropic/claude-unpriced", maxOutputTokens: 1_000 });
    const entries = usageEntries(log);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.costUsd).toBeNull();
    expect(session.usage.costUsd).toBeNull();
    expect(session.usage.inputTokens).toBe(entries.reduce((sum: number, e: LogEntry) => sum + e.inputTokens, 0));
  }, 90_000);

  it("uses the agent's own pricing over the catalogue's", async () => {
    const pricing = { input: 1, output: 2, cachedInputRead: 0.5, cachedInputWrite: 1 };
    const { log, session } = await runTurn({ id: "anthropic/claude-sonnet-4-5", pricing });
    const entries = usageEntries(log);
    let micro = 0;
    for (const entry of entries) {
      const uncached = entry.inputTokens - entry.cacheReadInputTokens - entry.cacheWriteInputTokens;
      const one = Math.round(
        uncached + entry.cacheReadInputTokens * 0.5 + entry.cacheWriteInputTokens + entry.outputTokens * 2,
      );
      expect(entry.costUsd).toBe(one / 1_000_000);
      micro += one;
    }
    expect(session.usage.costUsd).toBe(micro / 1_000_000);
  }, 90_000);
});
