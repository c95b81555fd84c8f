// `pnpm bench:scale:followers`: FOLLOWERS (10,000 by default) SSE followers of one session on one API process
// (`ROLE=all`, one process, `builtin/echo`), held by CLIENT_PROCESSES lean client processes. Reports the time to
// connect them, the server's memory per follower (RSS after minus before, over the followers), and for ROUNDS turns
// the time from the post to the turn's idle entry at every follower and from that entry's commit to its frame
// (p50 / p99 over every follower of every round), with the server's CPU per round.

import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { cpuTimeMs, type Started, startPlatformProcess, stopProcess, TSX } from "../e2e/processes.js";
import { HttpClient } from "../e2e/targets.js";
import { benchPlatformEnv, freshDatabase, percentile } from "../support.js";

const FOLLOWERS = Number(process.env.FOLLOWERS ?? 10_000);
const CLIENT_PROCESSES = Number(process.env.CLIENT_PROCESSES ?? 2);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** Connections opened at once per client process. */
const PARALLEL = Number(process.env.CONNECT_PARALLEL ?? 100);
const out = (line: string) => process.stdout.write(`${line}\n`);
const now = () => performance.timeOrigin + performance.now();

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

const database = await freshDatabase();
if (!database) throw new Error("the followers bench needs PostgreSQL (set BENCH_DATABASE_URL)");
const dataDir = mkdtempSync(join(tmpdir(), "ap-followers-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
let platform: Started | undefined;
const clients: Client[] = [];
try {
  platform = await startPlatformProcess({
    ...benchPlatformEnv({
      databaseUrl: database.url,
      dataDir,
      apiKey: key,
      modelUrl: "http://127.0.0.1:9",
      separate: true,
    }),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
    PROCESSES: "1",
  });
  const pid = platform.child.pid!;
  const auth = { authorization: `Bearer ${key}` };
  const setup = new HttpClient(platform.url, auth, 4);
  const project = (JSON.parse((await setup.request("GET", "/v1/platform/context")).body) as { project: { id: string } })
    .project.id;
  const base = `/v1/projects/${project}`;
  const agent = JSON.parse(
    (await setup.request("POST", `${base}/agents`, { name: "Followers bench", model: "builtin/echo" })).body,
  ) as { id: string };
  const session = JSON.parse((await setup.request("POST", `${base}/sessions`, { agent: agent.id })).body) as {
    id: string;
  };
  const post = (text: string) =>
    setup.request("POST", `${base}/sessions/${session.id}/events`, {
      events: [{ type: "user.message", content: [{ type: "text", text }] }],
    });
  // A first turn warms the paths a round takes (the loop, the stream) before anything is measured.
  await post("warm up");
  // Every follower reads the warm-up turn (one idle entry) as its backlog; round r then waits for idle entry r + 1.
  while (!(await setup.request("GET", `${base}/sessions/${session.id}/events`)).body.includes("session.status_idle")) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  for (let i = 0; i < CLIENT_PROCESSES; i++) clients.push(await startClient());
  const rssBefore = rssMiB(pid);
  const cpuBefore = cpuTimeMs(pid);
  const url = `${platform.url}${base}/sessions/${session.id}/events/stream`;
  out(
    `followers · ${FOLLOWERS} SSE followers of one session · ${CLIENT_PROCESSES} client processes · load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (shared machine)`,
  );
  const connectBegun = now();
  const share = (i: number) => Math.floor(FOLLOWERS / CLIENT_PROCESSES) + (i < FOLLOWERS % CLIENT_PROCESSES ? 1 : 0);
  const opened = await Promise.all(
    clients.map((c, i) =>
      c.ask<{ connectMs: number[]; errors: number }>(
        { cmd: "open", url, headers: auth, count: share(i), parallel: PARALLEL },
        "opened",
      ),
    ),
  );
  const connectAll = now() - connectBegun;
  const connectMs = opened.flatMap((o) => o.connectMs).filter((ms) => ms >= 0);
  const connectCpu = cpuTimeMs(pid) - cpuBefore;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rssAfter = rssMiB(pid);
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
  for (let round = 1; round <= ROUNDS; round++) {
    const cpu = cpuTimeMs(pid);
    const waits = clients.map((c) =>
      c.ask<{ arrivals: number[]; createdAt?: number; bytes: number }>({ cmd: "await", count: round + 1 }, "arrived"),
    );
    const posted = now();
    await post(`round ${round}`);
    const arrived = await Promise.all(waits);
    cpuRounds += cpuTimeMs(pid) - cpu;
    const createdAt = arrived.find((a) => a.createdAt !== undefined)?.createdAt ?? posted;
    const these = arrived.flatMap((a) => a.arrivals);
    for (const at of these) {
      postToFrame.push(at - posted);
      commitToFrame.push(at - createdAt);
    }
    out(
      `  round ${round}: idle entry at every follower ${(Math.max(...these) - posted).toFixed(0)} ms after the post` +
        ` · p50 ${percentile(
          these.map((a) => a - posted),
          50,
        ).toFixed(0)} ms`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  out(
    `  post → idle frame, p50 / p99 over ${postToFrame.length} frames: ${percentile(postToFrame, 50).toFixed(0)} / ${percentile(postToFrame, 99).toFixed(0)} ms`,
  );
  out(
    `  commit → idle frame (the entry's createdAt, database clock), p50 / p99: ${percentile(commitToFrame, 50).toFixed(0)} / ${percentile(commitToFrame, 99).toFixed(0)} ms`,
  );
  out(
    `  server CPU per round (one turn of 4 entries to every follower): ${(cpuRounds / ROUNDS).toFixed(0)} ms · load ${loadavg()[0]!.toFixed(2)}`,
  );
  setup.close();
} finally {
  for (const c of clients) c.child.send({ cmd: "exit" });
  if (platform) await stopProcess(platform.child);
  rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
}
