// `pnpm bench:scale:followers`: SSE followers held by one API process (`ROLE=api`; the turns, `builtin/echo`, run in
// a `ROLE=worker` process beside it, so the API process only serves and fans out), from CLIENT_PROCESSES lean client
// processes. Two scenarios on the same processes, one after the other:
//   spread        FOLLOWERS (10,000) over SESSIONS (1,000) sessions, ACTIVE (200) of them taking a turn at once per
//                 round: most followers idle, many sessions active (issue #39's shape);
//   one session   FOLLOWERS follow one session: the largest fan-out of one entry.
// Each reports the time to connect, the server's memory per follower (RSS after minus before, over the followers),
// and per round the time from the post(s) to the turn's idle entry at every follower of the sessions that took a
// turn, and from that entry's commit (its `createdAt`, the database's clock on this machine) to its frame (p50 / p99
// over every such follower of every round), with the server's CPU. `pnpm bench:scale` imports `measureFollowers` and
// runs the spread scenario against the platform it started with the defaults of `pnpm start`.

import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
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
let out: (line: string) => void = (line) => {
  process.stdout.write(`${line}\n`);
};
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg()[0]!.toFixed(2);

function rssMiB(pids: number[]): number {
  let kB = 0;
  for (const pid of pids) {
    try {
      kB += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kB / 1024;
}

function cpuMs(pids: number[]): number {
  let ms = 0;
  for (const pid of pids) {
    try {
      ms += cpuTimeMs(pid);
    } catch {
      // gone
    }
  }
  return ms;
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
  /** The processes serving the API (memory and CPU are summed over them). */
  pids(): number[];
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
interface Summary {
  followers: number;
  connectS: number;
  kibPerFollower: number;
  commitToFrame: [number, number];
  postToFrame: [number, number];
}

async function scenario(
  api: Api,
  name: string,
  sessionIds: string[],
  idles: number[],
  active: number,
): Promise<Summary> {
  const clients: Client[] = [];
  try {
    for (let i = 0; i < CLIENT_PROCESSES; i++) clients.push(await startClient());
    const urls = sessionIds.map((id) => `${api.url}${api.base}/sessions/${id}/events/stream`);
    const rssBefore = rssMiB(api.pids());
    const cpuBefore = cpuMs(api.pids());
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
    const connectCpu = cpuMs(api.pids()) - cpuBefore;
    await sleep(1000);
    const rssAfter = rssMiB(api.pids());
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
      const cpu = cpuMs(api.pids());
      const waits = clients.map((c) =>
        c.ask<{ arrivals: [number, number][]; createdAt: [number, number][] }>({ cmd: "await", counts }, "arrived"),
      );
      const posted = now();
      await Promise.all(turning.map((i) => post(api, sessionIds[i]!, `round ${round}`)));
      const arrived = await Promise.all(waits);
      cpuRounds += cpuMs(api.pids()) - cpu;
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
    return {
      followers: connectMs.length,
      connectS: connectAll / 1000,
      kibPerFollower: ((rssAfter - rssBefore) * 1024) / connectMs.length,
      commitToFrame: [percentile(commitToFrame, 50), percentile(commitToFrame, 99)],
      postToFrame: [percentile(postToFrame, 50), percentile(postToFrame, 99)],
    };
  } finally {
    for (const c of clients) c.child.send({ cmd: "exit" });
    await sleep(1000);
  }
}

/** What `pnpm bench:scale` hands over (its `ScaleContext`): a platform running with the defaults of `pnpm start`. */
interface ScaleContext {
  platformUrl: string;
  apiKey: string;
  projectId: string;
  pids(): number[];
  out(line: string): void;
}

/**
 * `pnpm bench:scale`'s followers rows: the spread scenario against the platform it started (every process it runs:
 * memory and CPU are summed over them). Returns [label, platform, floor, note] rows.
 */
export async function measureFollowers(context: ScaleContext): Promise<string[][]> {
  out = context.out;
  const auth = { authorization: `Bearer ${context.apiKey}` };
  const http = new HttpClient(context.platformUrl, auth, 50);
  const base = `/v1/projects/${context.projectId}`;
  try {
    const agentId = (
      JSON.parse(
        (await http.request("POST", `${base}/agents`, { name: "Followers bench", model: "builtin/echo" })).body,
      ) as { id: string }
    ).id;
    const api: Api = { url: context.platformUrl, pids: context.pids, auth, base, http, agentId };
    const sessions: string[] = [];
    while (sessions.length < SESSIONS) {
      const batch = Math.min(50, SESSIONS - sessions.length);
      sessions.push(...(await Promise.all(Array.from({ length: batch }, () => newSession(api)))));
    }
    const summary = await scenario(
      api,
      "followers",
      sessions,
      sessions.map(() => 0),
      Math.min(ACTIVE, SESSIONS),
    );
    const note = `${SESSIONS} sessions, ${Math.min(ACTIVE, SESSIONS)} taking a turn per round (builtin/echo)`;
    return [
      [`${summary.followers} SSE followers: connect all`, `${summary.connectS.toFixed(1)} s`, "—", note],
      [
        `  memory per follower`,
        `${summary.kibPerFollower.toFixed(1)} KiB`,
        "—",
        "RSS after minus before, all processes",
      ],
      [
        `  commit → frame p50 / p99`,
        `${summary.commitToFrame[0].toFixed(0)} / ${summary.commitToFrame[1].toFixed(0)} ms`,
        "—",
        "from the idle entry's createdAt",
      ],
    ];
  } finally {
    http.close();
  }
}

async function main(): Promise<void> {
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
    const project = (
      JSON.parse((await http.request("GET", "/v1/platform/context")).body) as { project: { id: string } }
    ).project.id;
    const base = `/v1/projects/${project}`;
    const agentId = (
      JSON.parse(
        (await http.request("POST", `${base}/agents`, { name: "Followers bench", model: "builtin/echo" })).body,
      ) as {
        id: string;
      }
    ).id;
    const apiPid = platform.child.pid!;
    const api: Api = { url: platform.url, pids: () => [apiPid], auth, base, http, agentId };

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
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
