import type { ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support.js";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { type LogEntry, waitForIdle, waitUntil } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTcpRelay, type TcpRelay } from "../support/tcp-relay.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";

// A process started while its database is down, or that loses it while it starts (docs/operating.md, "Starting"):
// it waits with backoff and one log line (DATABASE_WAIT_S), answers /readyz 503 meanwhile where it serves HTTP, then
// starts normally — or gives up with one line and a non-zero exit. The database is reached through a TCP relay that
// the test cuts and restores; the API runs in this process on a direct connection.
let t: TestApp;
let fake: FakeOpenAI;
const relays: TcpRelay[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.respondWith({ text: "Answered." });
  t = await startTestApp({ role: "api", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterEach(async () => {
  await Promise.all(children.splice(0).map(stopWorkerProcess));
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A relay to the test app's database, and the URL that goes through it. */
async function relayedDatabase(options?: Parameters<typeof startTcpRelay>[1]) {
  const direct = new URL(t.platform.ctx.config.databaseUrl!);
  const relay = await startTcpRelay({ host: direct.hostname, port: Number(direct.port) }, options);
  relays.push(relay);
  const url = new URL(direct);
  url.port = String(relay.port);
  return { relay, url: url.toString() };
}

/** Starts a platform process on `databaseUrl`; resolves when its output shows `until`, with its whole output so far. */
async function startProcess(databaseUrl: string, env: Record<string, string>, until: string) {
  const child = await startWorkerProcess(
    t,
    { DATABASE_URL: databaseUrl, OPENAI_COMPATIBLE_BASE_URL: fake.url, ...env },
    until,
  );
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

async function sessionWaitingForAWorker(): Promise<string> {
  const agent = await createAgent(t, t.tenant, { model: "openai-compatible/fake-model" });
  const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("hello")] });
  return session.id as string;
}

const endedTurns = (log: LogEntry[]) =>
  log.filter((e) => e.type === "session.status_idle").map((e) => e.stopReason as string);

describe("a process whose database is not there when it starts", { timeout: 120_000 }, () => {
  it("a worker started while PostgreSQL is down waits, comes up when it returns and runs the turns waiting for it", async () => {
    const { relay, url } = await relayedDatabase();
    await relay.cut();
    const sessionId = await sessionWaitingForAWorker();
    const worker = await startProcess(url, {}, "waiting for the database");
    // Down for a few retries: the process waits (no exit, no turn run).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(worker.child.exitCode).toBeNull();
    expect(fake.requests).toHaveLength(0);

    await relay.restore();
    const log = await waitForIdle(t, t.tenant, sessionId, 1, 60_000);
    expect(endedTurns(log)).toEqual(["end_turn"]);
    expect(log.find((e) => e.type === "agent.message").content[0].text).toBe("Answered.");
    await waitUntil("the worker's start line", async () =>
      worker.output().includes("job runner started") ? true : undefined,
    );
    expect(worker.output()).toMatch(/the database answers after \d+(\.\d)? s/);
    expect(worker.child.exitCode).toBeNull();
  });

  it("a worker whose database goes away during its start (its migration check cut) starts once it answers", async () => {
    // Connection 1 is the wait's check, 2 the migration check's: cut, as a database shutting down cuts it.
    const { url } = await relayedDatabase({ dropConnection: (n) => n === 2 });
    const sessionId = await sessionWaitingForAWorker();
    const worker = await startProcess(url, {}, "job runner started");
    const log = await waitForIdle(t, t.tenant, sessionId, 1, 60_000);
    expect(endedTurns(log)).toEqual(["end_turn"]);
    expect(worker.child.exitCode).toBeNull();
  });

  it("an API process answers /readyz 503 while it waits, then serves", async () => {
    const { relay, url } = await relayedDatabase();
    await relay.cut();
    const port = await freePort();
    const api = `http://127.0.0.1:${port}`;
    await startProcess(url, { ROLE: "api", PORT: String(port), HOST: "127.0.0.1" }, "waiting for the database");
    const waiting = await fetch(`${api}/readyz`);
    expect(waiting.status).toBe(503);
    expect(await waiting.json()).toEqual({ status: "unavailable", checks: { database: "waiting" } });
    expect((await fetch(`${api}/healthz`)).status).toBe(200);
    const refused = await fetch(`${api}/v1/platform/context`, { headers: { authorization: `Bearer ${t.tenant.key}` } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("service.unavailable");

    await relay.restore();
    const ready = await waitUntil(
      "the API to serve",
      async () => {
        const res = await fetch(`${api}/v1/platform/context`, { headers: { authorization: `Bearer ${t.tenant.key}` } });
        return res.status === 200 ? res : undefined;
      },
      30_000,
    );
    expect(JSON.stringify(await ready.json())).toContain(t.tenant.projectId);
    expect((await fetch(`${api}/readyz`)).status).toBe(200);
  });

  it("gives up after DATABASE_WAIT_S with one line naming the fix and a non-zero exit", async () => {
    const { relay, url } = await relayedDatabase();
    await relay.cut();
    const exited = startProcess(url, { DATABASE_WAIT_S: "2" }, "job runner started");
    const failure = await exited.then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/^worker exited with 1:/);
    const lines = failure!.split("\n").filter((line) => line.trim().length > 0);
    const fatal = lines.filter((line) => line.includes('"level":60'));
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatch(
      /did not answer within 2 s \(connect ECONNREFUSED [^)]+\): start PostgreSQL or correct DATABASE_URL, or wait longer with DATABASE_WAIT_S; exiting/,
    );
    // No stack trace: every line is a log line.
    expect(lines.slice(1).filter((line) => !line.startsWith("{"))).toEqual([]);
  });
});
