// `pnpm bench:scale:followers`: SSE followers held by one API process (`ROLE=api`; the turns, `builtin/echo`, run in
// a `ROLE=worker` process beside it, so the API process only serves and fans out), from CLIENT_PROCESSES lean client
// processes. Two scenarios on the same processes, one after the other:
//   spread        FOLLOWERS (10,000) over SESSIONS (1,000) sessions, ACTIVE (200) of them taking a turn at once per
//                 round: most followers idle, many sessions active (issue #39's shape);
//   one session   FOLLOWERS follow one session: the largest fan-out of one entry.
// Each reports the time to connect, the server's memory per follower (RSS after minus before, over the followers),
// and per round the time from the post(s) to the turn's idle entry at every follower of the sessions that took a
// turn, and from that entry's commit (its `createdAt`, the database's clock on this machine) to its frame (p50 / p99
// over every such follower of every round), with the server's CPU.

import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { cpuTimeMs, type Started, startPlatformProcess, stopProcess, TSX } from "../e2e/processes.js";
import { HttpClient } from "../e2e/targets.js";
import { benchPlatformEnv, freshDatabase, percentile } from "../support.js";

const FOLLOWERS = Number(process.env.FOLLOWERS ?? 10_000);
const SESSIONS = Number(process.env.SESSIONS ?? 1_000);
const ACTIVE = Number(process.env.ACTIVE ?? 200);
const CLIENT_PROCESSES = Number(process.env.CLIENT_PROCESSES ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** `one`, `spread` or both (unset). */
const SCENARIO = process.env.SCENARIO;
/** Connections opened at once per client process. */
const PARALLEL = Number(process.env.CONNECT_PARALLEL ?? 100);
const out = (line: string) => process.stdout.write(`${line}\n`);
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg()[0]!.toFixed(2);

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
}

interface Client {
  child: ChildProcess;
  ask<T>(message: object, answer: string): Promise<T>;
}

function startClient(): Promise<Client> {
  const child = fork(join(import.meta.dirname, "followers-client.ts"), [], { execArgv: TSX, stdio: "inherit" });
  const waiters = new Map<string, (message: unknown) => void>();
  child.on("message", (message: { cmd: string }) => {
    const waiter = waiters.get(message.cmd);
    waiters.delete(message.cmd);
    waiter?.(message);
  });
  const client: Client = {
    child,
    ask: <T>(message: object, answer: string) =>
      new Promise<T>((resolve) => {
        waiters.set(answer, resolve as (message: unknown) => void);
        child.send(message);
      }),
  };
  return new Promise((resolve) => waiters.set("ready", () => resolve(client)));
}

interface Api {
  url: string;
  pid: number;
  auth: Record<string, string>;
  base: string;
  http: HttpClient;
  agentId: string;
}

async function newSession(api: Api): Promise<string> {
  return (
    JSON.parse((await api.http.request("POST", `${api.base}/sessions`, { agent: api.agentId })).body) as { id: string }
  ).id;
}

function post(api: Api, sessionId: string, text: string) {
  return api.http.request("POST", `${api.base}/sessions/${sessionId}/events`, {
    events: [{ type: "user.message", content: [{ type: "text", text }] }],
  });
}

/**
 * `followers` connections over `sessionIds` (evenly), then `rounds` rounds in which `active` sessions each take a
 * turn. `idles[i]`: the idle entries session i's log holds before the first round.
 */
async function scenario(api: Api, name: string, sessionIds: string[], idles: number[], active: number) {
  const clients: Client[] = [];
  try {
    for (let i = 0; i < CLIENT_PROCESSES; i++) clients.push(await startClient());
    const urls = sessionIds.map((id) => `${api.url}${api.base}/sessions/${id}/events/stream`);
    const rssBefore = rssMiB(api.pid);
    const cpuBefore = cpuTimeMs(api.pid);
    out(
      `${name} · ${FOLLOWERS} SSE followers of ${sessionIds.length} session(s), ${active} taking a turn per round · ${CLIENT_PROCESSES} client processes · load ${load()} (shared machine, 2 cores)`,
    );
    const connectBegun = now();
    const assignments = clients.map(() => [] as number[]);
    for (let i = 0; i < FOLLOWERS; i++) assignments[i % CLIENT_PROCESSES]!.push(i % sessionIds.length);
    const opened = await Promise.all(
      clients.map((c, i) =>
        c.ask<{ connectMs: number[]; errors: number }>(
          { cmd: "open", urls, sessions: assignments[i], headers: api.auth, parallel: PARALLEL },
          "opened",
        ),
      ),
    );
    const connectAll = now() - connectBegun;
    const connectMs = opened.flatMap((o) => o.connectMs).filter((ms) => ms >= 0);
    const connectCpu = cpuTimeMs(api.pid) - cpuBefore;
    await sleep(1000);
    const rssAfter = rssMiB(api.pid);
    out(
      `  connected ${connectMs.length} (errors ${opened.reduce((n, o) => n + o.errors, 0)}) in ${(connectAll / 1000).toFixed(1)} s` +
        ` · each p50 ${percentile(connectMs, 50).toFixed(0)} ms / p99 ${percentile(connectMs, 99).toFixed(0)} ms` +
        ` · server CPU ${(connectCpu / connectMs.length).toFixed(2)} ms per connection`,
    );
    out(
      `  server RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB: ${(((rssAfter - rssBefore) * 1024) / connectMs.length).toFixed(1)} KiB per follower`,
    );

    const postToFrame: number[] = [];
    const commitToFrame: number[] = [];
    let cpuRounds = 0;
    let next = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const turning = Array.from({ length: active }, () => next++ % sessionIds.length);
      const counts: Record<number, number> = {};
      for (const i of turning) counts[i] = ++idles[i]!;
      const cpu = cpuTimeMs(api.pid);
      const waits = clients.map((c) =>
        c.ask<{ arrivals: [number, number][]; createdAt: [number, number][] }>({ cmd: "await", counts }, "arrived"),
      );
      const posted = now();
      await Promise.all(turning.map((i) => post(api, sessionIds[i]!, `round ${round}`)));
      const arrived = await Promise.all(waits);
      cpuRounds += cpuTimeMs(api.pid) - cpu;
      const createdAt = new Map(arrived.flatMap((a) => a.createdAt));
      const these = arrived.flatMap((a) => a.arrivals);
      for (const [session, at] of these) {
        postToFrame.push(at - posted);
        commitToFrame.push(at - (createdAt.get(session) ?? posted));
      }
      out(
        `  round ${round}: ${these.length} idle frames · the last ${(Math.max(...these.map(([, at]) => at)) - posted).toFixed(0)} ms after the post(s)`,
      );
      await sleep(500);
    }
    out(
      `  post → idle frame, p50 / p99 over ${postToFrame.length} frames: ${percentile(postToFrame, 50).toFixed(0)} / ${percentile(postToFrame, 99).toFixed(0)} ms`,
    );
    out(
      `  commit → idle frame (its createdAt, the database's clock), p50 / p99: ${percentile(commitToFrame, 50).toFixed(0)} / ${percentile(commitToFrame, 99).toFixed(0)} ms`,
    );
    out(
      `  server CPU per round (${active} turn(s) of 4 entries, each to its followers): ${(cpuRounds / ROUNDS).toFixed(0)} ms · load ${load()}`,
    );
  } finally {
    for (const c of clients) c.child.send({ cmd: "exit" });
    await sleep(1000);
  }
}

const database = await freshDatabase();
if (!database) throw new Error("the followers bench needs PostgreSQL (set BENCH_DATABASE_URL)");
const dataDir = mkdtempSync(join(tmpdir(), "ap-followers-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
let platform: Started | undefined;
let worker: Started | undefined;
try {
  const env = {
    ...benchPlatformEnv({
      databaseUrl: database.url,
      dataDir,
      apiKey: key,
      modelUrl: "http://127.0.0.1:9",
      separate: true,
    }),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
    PROCESSES: "1",
  };
  platform = await startPlatformProcess({ ...env, ROLE: "api" });
  // At info level: the line that says it started is what the bench waits for.
  worker = await startPlatformProcess({ ...env, ROLE: "worker", LOG_LEVEL: "info" });
  const auth = { authorization: `Bearer ${key}` };
  const http = new HttpClient(platform.url, auth, 50);
  const project = (JSON.parse((await http.request("GET", "/v1/platform/context")).body) as { project: { id: string } })
    .project.id;
  const base = `/v1/projects/${project}`;
  const agentId = (
    JSON.parse(
      (await http.request("POST", `${base}/agents`, { name: "Followers bench", model: "builtin/echo" })).body,
    ) as {
      id: string;
    }
  ).id;
  const api: Api = { url: platform.url, pid: platform.child.pid!, auth, base, http, agentId };

  if (SCENARIO !== "one") {
    const sessions: string[] = [];
    while (sessions.length < SESSIONS) {
      const batch = Math.min(50, SESSIONS - sessions.length);
      sessions.push(...(await Promise.all(Array.from({ length: batch }, () => newSession(api)))));
    }
    await scenario(
      api,
      "spread",
      sessions,
      sessions.map(() => 0),
      Math.min(ACTIVE, SESSIONS),
    );
  }
  if (SCENARIO !== "spread") {
    const session = await newSession(api);
    // A first turn warms the paths a round takes (the loop, the stream) before anything is measured.
    await post(api, session, "warm up");
    while (!(await http.request("GET", `${base}/sessions/${session}/events`)).body.includes("session.status_idle")) {
      await sleep(50);
    }
    await scenario(api, "one session", [session], [1], 1);
  }
  http.close();
} finally {
  if (worker) await stopProcess(worker.child);
  if (platform) await stopProcess(platform.child);
  rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
}
