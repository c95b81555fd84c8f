import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeReply, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { killWorkerProcess, startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { expectGapFree, type LogEntry, waitForIdle, waitUntil } from "./loop-helpers.js";

// A worker killed (SIGKILL) while its session is being compacted: the next worker compacts again; the log loses and
// duplicates nothing. The API runs in this process, workers are child processes.
const WINDOW = 6_000;
let t: TestApp;
let fake: FakeOpenAI;
let mcp: TestMcpServer;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI({ contextWindow: WINDOW });
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({ role: "api", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await Promise.all(workers.splice(0).map(stopWorkerProcess));
  await t?.close();
  await fake?.close();
  await mcp?.close();
});

async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess(t, { OPENAI_COMPATIBLE_BASE_URL: fake.url, WORKER_LEASE_MS: "2000" });
  workers.push(child);
  return child;
}

// biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
const messagesOf = (request: FakeRequest) => request.body.messages as any[];
const isSummaryCall = (request: FakeRequest) =>
  String(messagesOf(request).at(-1)?.content ?? "").startsWith("Summarise this conversation");
const summaryCalls = () => fake.requests.filter(isSummaryCall);
const words = (n: number) => Array.from({ length: n }, (_, i) => `lorem${i % 10}`).join(" ");
const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);

describe("a worker killed during a compaction", { timeout: 180_000 }, () => {
  it("loses and duplicates nothing: the next worker compacts again and every turn ends", async () => {
    let stallSummaries = true;
    fake.respondWith((request): FakeReply => {
      if (isSummaryCall(request)) {
        return stallSummaries ? { hang: true } : { text: "Summary: echoes requested, all succeeded." };
      }
      if (messagesOf(request).at(-1)?.role === "tool") return { text: "Echoed." };
      return { toolCalls: [{ name: "docs__echo", arguments: { text: words(700) } }] };
    });
    const agent = await createAgent(t, t.tenant, {
      model: { id: "openai-compatible/fake-model", contextWindow: WINDOW },
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__echo: "always_allow" },
    });
    const first = await startWorker();
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("turn 1")] });
    let turn = 1;
    // Turns until one needs a compaction, whose summarising call then hangs.
    for (;;) {
      const ended = await Promise.race([
        waitForIdle(t, t.tenant, session.id, turn, 60_000).then(() => true),
        waitUntil("a summarising call", async () => (summaryCalls().length > 0 ? true : undefined), 60_000).then(
          () => false,
        ),
      ]);
      if (!ended) break;
      turn++;
      await postEvents(t, t.tenant, session.id, [message(`turn ${turn}`)]);
    }
    await killWorkerProcess(first);
    stallSummaries = false;
    await startWorker();
    let log = await waitForIdle(t, t.tenant, session.id, turn, 60_000);
    // Two more turns on the compacted conversation.
    for (const next of [turn + 1, turn + 2]) {
      await postEvents(t, t.tenant, session.id, [message(`turn ${next}`)]);
      log = await waitForIdle(t, t.tenant, session.id, next, 60_000);
    }
    expectGapFree(log);
    expect(summaryCalls().length).toBeGreaterThanOrEqual(2);
    const compactions = byType(log, "session.compaction");
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(new Set(compactions.map((c) => c.toSeq)).size).toBe(compactions.length);
    const idles = byType(log, "session.status_idle");
    expect(idles).toHaveLength(turn + 2);
    expect(idles.every((e) => e.stopReason === "end_turn")).toBe(true);
    expect(byType(log, "user.message")).toHaveLength(turn + 2);
    // One result per tool use: nothing run twice into the log, nothing left unanswered.
    const uses = byType(log, "agent.mcp_tool_use").map((e) => e.id);
    const results = byType(log, "agent.mcp_tool_result").map((e) => e.toolUseId);
    expect(results.sort()).toEqual(uses.sort());
  });
});
