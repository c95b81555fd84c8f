import type { ChildProcess } from "node:child_process";
import supertest from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { killWorkerProcess, startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";
import { createAgent, message, newSession } from "./helpers.js";
import { expectGapFree, type LogEntry, types, waitForIdle, waitForLog, waitUntil } from "./loop-helpers.js";

// The API runs in this process without a worker; workers are real child processes that the tests kill with SIGKILL.
const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let mcp: TestMcpServer;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({ role: "api", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map(stopWorkerProcess));
  fake.reset();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await mcp?.close();
});

/** A real worker process (ROLE=worker) on the test database, with a short lease so recoveries are quick. */
async function startWorker(extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  const child = await startWorkerProcess(t, {
    OPENAI_COMPATIBLE_BASE_URL: fake.url,
    WORKER_LEASE_MS: "2000",
    ...extraEnv,
  });
  workers.push(child);
  return child;
}

const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");
const count = (log: LogEntry[], type: string) => log.filter((e) => e.type === type).length;

// Each test spawns worker processes (a few seconds each on a loaded machine): generous time limits.
describe("crash recovery (kill -9 of the worker mid-turn)", { timeout: 120_000 }, () => {
  it("redoes a model call whose reply was not persisted: nothing lost, nothing duplicated", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["artifact_write"] });
    fake.enqueue(
      { toolCalls: [{ name: "artifact_write", arguments: { name: "notes.md", content: "draft" } }] },
      { text: "a very slow answer that never completes because the worker dies", chunkDelayMs: 1_000 },
      { text: "The final answer." },
    );
    const first = await startWorker();
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("write notes, then answer")] });

    // The tool ran and its result is in the log; the second model call is streaming slowly.
    await waitForLog(t, t.tenant, session.id, "the tool result", (log) => count(log, "agent.tool_result") === 1);
    await waitUntil("the second model call", async () => (chatCalls()[1]?.outcome === "pending" ? true : undefined));
    await killWorkerProcess(first);

    await startWorker();
    const log = await waitForIdle(t, t.tenant, session.id, 1, 30_000);
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
    expect(log[5].content).toEqual([{ type: "text", text: "The final answer." }]);
    expect(log.at(-1).stopReason).toBe("end_turn");
    expect(chatCalls()).toHaveLength(3);
    expect(chatCalls()[1]!.outcome).toBe("client-closed");
    // The redone call saw the persisted tool result under the same tool-use id.
    // biome-ignore lint/suspicious/noExplicitAny: chat messages as received
    const toolMessages = (chatCalls()[2]!.body.messages as any[]).filter((m) => m.role === "tool");
    expect(toolMessages.map((m) => m.tool_call_id)).toEqual([log[2].id]);
    // The work item goes away once the pass is complete (just after its last entry).
    await waitUntil("the work item to be completed", async () => {
      const row = await t.platform.ctx.db.pool.query(
        `SELECT 1 FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`,
        [session.id],
      );
      return row.rowCount === 0 ? true : undefined;
    });
  });

  it("runs a tool use left without a result again on resume (at-least-once), with one result in the log", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: MODEL,
      mcpServers: [{ name: "svc", url: mcp.url }],
      toolPermissions: { svc__slow: "always_allow" },
    });
    fake.enqueue({ toolCalls: [{ name: "svc__slow", arguments: { ms: 1_500 } }] }, { text: "Waited." });
    const first = await startWorker();
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("wait a bit")] });
    await waitUntil("the MCP tool to start", async () => (mcp.toolCalls.length === 1 ? true : undefined));
    await killWorkerProcess(first);
    await startWorker();

    const log = await waitForIdle(t, t.tenant, session.id, 1, 30_000);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.mcp_tool_use",
      "agent.usage",
      "agent.mcp_tool_result",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expectGapFree(log);
    expect(log[4]).toMatchObject({ toolUseId: log[2].id, isError: false });
    expect(mcp.toolCalls.filter((c) => c.name === "slow")).toHaveLength(2);
    expect(chatCalls()).toHaveLength(2);
  });

  it("lets a turn in progress finish on a graceful stop (drain), then exits", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue({ text: "a few slow words", chunkDelayMs: 200 });
    const worker = await startWorker({ WORKER_DRAIN_MS: "60000" });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("hello")] });
    await waitUntil("the model call", async () => (chatCalls()[0]?.outcome === "pending" ? true : undefined));
    await stopWorkerProcess(worker); // SIGTERM: no new claims, the turn in progress finishes first
    expect(worker.exitCode).toBe(0);
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(log[2].content[0].text).toBe("a few slow words");
    expect(chatCalls()).toHaveLength(1);
    const job = await t.platform.ctx.db.pool.query(`SELECT 1 FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`, [
      session.id,
    ]);
    expect(job.rowCount).toBe(0);
  });

  it("resumes a turn a ROLE=all process opened as it took the message, when it dies: the turn is opened once", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue(
      { text: "a very slow answer that never completes because the process dies", chunkDelayMs: 1_000 },
      { text: "The answer." },
    );
    const port = await freePort();
    const all = await startWorker({ ROLE: "all", PORT: String(port), HOST: "127.0.0.1" });
    const session = await newSession(t, t.tenant, { agent: agent.id });
    // Posted to the process that runs turns: its ingestion claims the turn and opens it in the same statement.
    const posted = await supertest(`http://127.0.0.1:${port}`)
      .post(`${t.tenant.base}/sessions/${session.id}/events`)
      .set(t.tenant.auth)
      .send({ events: [message("hello")] });
    expect(posted.status).toBe(202);
    expect(posted.body.session).toMatchObject({ status: "running", lastSeq: 2 });
    await waitUntil("the model call", async () => (chatCalls()[0]?.outcome === "pending" ? true : undefined));
    await killWorkerProcess(all);

    // Once the dead process's lease has expired, a worker claims the turn at its start and finds it open.
    await waitUntil("the lease to expire", async () => {
      const job = await t.platform.ctx.db.pool.query<{ due: boolean }>(
        `SELECT "dueAt" <= now() AS "due" FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`,
        [session.id],
      );
      return job.rows[0]?.due ? true : undefined;
    });
    await startWorker();
    const log = await waitForIdle(t, t.tenant, session.id, 1, 30_000);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(log[2].content[0].text).toBe("The answer.");
    expectGapFree(log);
  });

  it("gives the lease back on a graceful stop past the drain time, so another worker resumes at once", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue({ text: "slow words that will be cut short by the stop", chunkDelayMs: 1_000 }, { text: "Resumed." });
    const first = await startWorker({ WORKER_LEASE_MS: "600000", WORKER_DRAIN_MS: "0" });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("hello")] });
    await waitUntil("the model call", async () => (chatCalls()[0]?.outcome === "pending" ? true : undefined));
    await stopWorkerProcess(first); // SIGTERM
    expect(first.exitCode).toBe(0);
    const run = await t.platform.ctx.db.pool.query(
      `SELECT "leaseOwner", "dueAt" <= now() AS "due" FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`,
      [session.id],
    );
    expect(run.rows).toEqual([{ leaseOwner: null, due: true }]);

    // With a 10-minute lease, only a released lease lets the next worker continue now.
    await startWorker({ WORKER_LEASE_MS: "600000" });
    const log = await waitForIdle(t, t.tenant, session.id, 1, 30_000);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(log[2].content[0].text).toBe("Resumed.");
    expectGapFree(log);
  });

  it("stops a session that keeps killing its worker with session.error session.loop_failed", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue({ text: "never finishes", chunkDelayMs: 5_000 });
    const first = await startWorker({ WORKER_MAX_ATTEMPTS: "1" });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("hello")] });
    await waitUntil("the model call", async () => (chatCalls()[0]?.outcome === "pending" ? true : undefined));
    await killWorkerProcess(first);
    await startWorker({ WORKER_MAX_ATTEMPTS: "1" });
    const log = await waitForIdle(t, t.tenant, session.id, 1, 30_000);
    expect(types(log)).toEqual(["user.message", "session.status_running", "session.error", "session.status_idle"]);
    expect(log[2].error.code).toBe("session.loop_failed");
    expect(log[3].stopReason).toBe("error");
    expect(chatCalls()).toHaveLength(1);
  });
});
