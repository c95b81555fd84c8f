import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, type FakeAnthropicRequest, startFakeAnthropic } from "../support/fake-anthropic.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { killWorkerProcess, startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";
import { createAgent, message, newSession } from "./helpers.js";
import { expectGapFree, type LogEntry, waitForIdle, waitUntil } from "./loop-helpers.js";

// Extended thinking with tools on Anthropic: the signed thinking block of a tool-use response goes back unchanged with
// its tool results — also when the worker that made the call dies before the next one. The API runs in this process,
// workers are child processes; the fake refuses (400) a follow-up whose thinking is dropped or altered.
let t: TestApp;
let fake: FakeAnthropic;
let mcp: TestMcpServer;
const workers: ChildProcess[] = [];
let stall = false;

// Messages API bodies as received.
type Block = { type?: string };
const hasToolResult = (request: FakeAnthropicRequest) =>
  request.body.messages.some(
    (m: { content: unknown }) =>
      Array.isArray(m.content) && (m.content as Block[]).some((b) => b.type === "tool_result"),
  );

beforeAll(async () => {
  fake = await startFakeAnthropic({
    noThinking: ["claude-3-haiku-20240307"],
    reply: (request) => {
      if (!hasToolResult(request)) {
        return {
          thinking: "The user wants an echo: call the tool once.",
          toolCalls: [{ name: "docs__echo", input: { text: "hi" } }],
        };
      }
      return stall ? { hang: true } : { thinking: "The tool answered.", text: "Echoed: hi" };
    },
  });
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({ role: "api", env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.url } });
});
afterAll(async () => {
  await Promise.all(workers.splice(0).map(stopWorkerProcess));
  await t?.close();
  await fake?.close();
  await mcp?.close();
});

async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess(t, {
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: fake.url,
    WORKER_LEASE_MS: "2000",
    EGRESS_ALLOW_CIDRS: "127.0.0.0/8",
  });
  workers.push(child);
  return child;
}

const REASONING_AGENT = {
  model: { id: "anthropic/claude-sonnet-4-5", maxOutputTokens: 4_096, reasoning: { budgetTokens: 2_048 } },
  mcpServers: [{ name: "docs", url: "" }],
  toolPermissions: { docs__echo: "always_allow" },
};

describe("reasoning models", { timeout: 120_000 }, () => {
  it("refuses a reasoning setting on a model the catalogue says cannot reason (422)", async () => {
    const res = await t.http
      .post(`${t.tenant.base}/agents`)
      .set(t.tenant.auth)
      .send({ name: "no thinking", model: { id: "anthropic/claude-3-haiku-20240307", reasoning: { effort: "low" } } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("agent.invalid_model");
    expect(res.body.error.message).toMatch(/cannot reason/);
  });

  it("sends the signed thinking back unchanged after the tool call, across a worker killed mid-turn", async () => {
    const agent = await createAgent(t, t.tenant, {
      ...REASONING_AGENT,
      mcpServers: [{ name: "docs", url: mcp.url }],
    });
    stall = true;
    const first = await startWorker();
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("Echo hi.")] });
    // The tool-use response (with its thinking) is committed, the tool ran, and the next call is in flight: kill.
    await waitUntil("the call after the tool result", async () =>
      fake.requests.some(hasToolResult) ? true : undefined,
    );
    await killWorkerProcess(first);
    stall = false;
    await startWorker();
    const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);

    expect(log.filter((e: LogEntry) => e.type === "session.error")).toEqual([]);
    expect(fake.requests.every((r) => r.status === 200)).toBe(true);
    const firstCall = fake.requests.find((r) => !hasToolResult(r))!;
    expect(firstCall.body.thinking).toEqual({ type: "enabled", budget_tokens: 2_048 });
    const thinking = log.filter((e: LogEntry) => e.type === "agent.thinking");
    expect(thinking.map((e: LogEntry) => e.text)).toEqual([
      "The user wants an echo: call the tool once.",
      "The tool answered.",
    ]);
    expect(thinking[0].providerMetadata.anthropic.signature).toEqual(expect.any(String));
    // Every follow-up (the one cut by the kill and the one of the new worker) carries the block exactly as it came.
    const followUps = fake.requests.filter(hasToolResult);
    expect(followUps.length).toBeGreaterThanOrEqual(2);
    for (const request of followUps) {
      const assistant = request.body.messages.find((m: LogEntry) => m.role === "assistant");
      expect(assistant.content[0]).toEqual({
        type: "thinking",
        thinking: "The user wants an echo: call the tool once.",
        signature: thinking[0].providerMetadata.anthropic.signature,
      });
    }
    expect(log.filter((e: LogEntry) => e.type === "agent.message").at(-1).content).toEqual([
      { type: "text", text: "Echoed: hi" },
    ]);
    expectGapFree(log);
  });
});
