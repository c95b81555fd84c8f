import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, type FakeAnthropicRequest, startFakeAnthropic } from "../support/fake-anthropic.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { expectGapFree, type LogEntry, waitForIdle } from "./loop-helpers.js";

// Anthropic's refusal of a prompt over the window ("prompt is too long", 400) is recovered from by compacting.
let t: TestApp;
let fake: FakeAnthropic;
let mcp: TestMcpServer;

const words = (n: number) => Array.from({ length: n }, (_, i) => `lorem${i % 10}`).join(" ");
// biome-ignore lint/suspicious/noExplicitAny: Messages API bodies as received
const lastBlock = (request: FakeAnthropicRequest): any => {
  const last = request.body.messages.at(-1);
  return Array.isArray(last.content) ? last.content.at(-1) : { type: "text", text: last.content };
};

beforeAll(async () => {
  fake = await startFakeAnthropic({
    contextWindow: 8_000,
    reply: (request) => {
      const block = lastBlock(request);
      if (block.type === "text" && String(block.text).startsWith("Summarise this conversation")) {
        return { text: "Summary: the user asked for echoes; all succeeded." };
      }
      if (block.type === "tool_result") return { text: "Echoed." };
      return { toolCalls: [{ name: "docs__echo", input: { text: words(1_500) } }] };
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

const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);

describe("long sessions on Anthropic", () => {
  it("compacts and retries when the API answers that the prompt is too long", async () => {
    // A model the catalogue does not know, without a declared window: only the refusal tells.
    const agent = await createAgent(t, t.tenant, {
      model: { id: "anthropic/claude-test", maxOutputTokens: 1_000 },
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__echo: "always_allow" },
    });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("turn 1")] });
    let log: LogEntry[] = [];
    for (let turn = 1; turn <= 5; turn++) {
      if (turn > 1) await postEvents(t, t.tenant, session.id, [message(`turn ${turn}`)]);
      log = await waitForIdle(t, t.tenant, session.id, turn, 60_000);
    }
    expect(byType(log, "session.error")).toEqual([]);
    expect(byType(log, "session.status_idle").every((e) => e.stopReason === "end_turn")).toBe(true);
    expect(fake.requests.some((r) => r.refused)).toBe(true);
    expect(byType(log, "session.compaction").some((e) => e.reason === "context_overflow")).toBe(true);
    expectGapFree(log);
  }, 120_000);
});
