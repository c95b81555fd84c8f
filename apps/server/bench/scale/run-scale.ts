// `pnpm bench:scale`: many concurrent sessions on a slow model, against the floor (a bare node:http + pg server doing
// the same persistent work, `bench/e2e/bare-e2e-server.ts`) in the same run. Each client creates a session, posts a
// user.message and follows the SSE stream to the turn's end, again and again: for `--warmup` seconds from the server's
// cold start (two model calls and 10 s, at least 30; its turns are printed apart), then for the measured window of
// `--seconds` (40). The model (an OpenAI-compatible fake in a process of its own) answers after `--model-ms`. Printed
// per server, for the window: turns/s (Little's law, see `load`), p50/p95 turn, server CPU per turn (every process of
// the server), PostgreSQL CPU per turn (the backends of the server's database, from /proc), peak RSS (summed over its
// processes), the p99 latency of GET /healthz sampled every 250 ms (the API processes' event-loop delay as a client
// sees it), errors; and the p50 turn of the warm-up (a server that has just started: its code not yet optimised by
// V8's JIT).
//
//   pnpm bench:scale                                   1,000 sessions on a 10 s model, the defaults of `pnpm start`
//   pnpm bench:scale --sessions 5000 --model-ms 60000 --seconds 130   (130 s of warm-up: two model calls and 10 s)
//   pnpm bench:scale --workers 1,2,4                   one ROLE=api process + a ROLE=worker supervisor of N children
//   pnpm bench:scale --processes 1                     the defaults but one process
//   pnpm bench:scale --no-floor --no-followers          the platform's sessions only (an A/B of the platform)
// BENCH_KEEP_DB=1 keeps the runs' databases (their URLs are printed) to study the turns' timestamps afterwards.
// Run it from the repository's root (`pnpm bench:scale` there builds first): from apps/server it runs `dist/` as it
// is, or the sources through tsx when there is no build (slower than what `pnpm start` runs).
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DatabaseMeter } from "../e2e/database-cost.js";
import { cpuTimeMs, type Started, startPlatformProcess, startProcess, stopProcess, TSX } from "../e2e/processes.js";
import { bareTarget, HttpClient, platformTarget, type Target } from "../e2e/targets.js";
import { benchPlatformEnv, freshDatabase, markdownTable, percentile } from "../support.js";
import type { ScaleContext, ScaleMeasurement } from "./hooks.js";

const { values: args } = parseArgs({
  options: {
    sessions: { type: "string", default: "1000" },
    "model-ms": { type: "string", default: "10000" },
    /**
     * From the servers' cold start, before the measured window (the turns of this part are printed apart). By default
     * two model calls' time and 10 s, at least 30 s: the turns that end in the window must have started warm, and the
     * first wave's (every client creating its session at once on a cold server) end about one model call after it.
     */
    warmup: { type: "string" },
    seconds: { type: "string", default: "40" },
    workers: { type: "string" },
    /** PROCESSES of the default platform (blank: the default of `pnpm start`, one per core). */
    processes: { type: "string", default: "" },
    "no-floor": { type: "boolean", default: false },
    "no-followers": { type: "boolean", default: false },
  },
});
const SESSIONS = Number(args.sessions);
const MODEL_MS = Number(args["model-ms"]);
const SECONDS = Number(args.seconds);
const WARMUP = args.warmup === undefined ? Math.max(30, (2 * MODEL_MS) / 1000 + 10) : Number(args.warmup);
const TURN_TIMEOUT_MS = MODEL_MS * 6 + 60_000;

const out = (line: string) => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** The process and its descendants (a supervisor's children). */
function processTree(pid: number): number[] {
  const found = [pid];
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    for (const child of children) found.push(...processTree(Number(child)));
  } catch {
    // gone
  }
  return found;
}

function peakRssMiB(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

const safeCpu = (pid: number) => {
  try {
    return cpuTimeMs(pid);
  } catch {
    return 0;
  }
};

interface Result {
  name: string;
  turns: number;
  errors: number;
  firstError?: string;
  turnsPerSecond: number;
  p50: number;
  p95: number;
  /** The session's creation, of the turn's time (ms): clients in step make bursts of creations. */
  createP50: number;
  createP95: number;
  cpuMsPerTurn: number;
  /** Of which the supervisor's (0 for a single process). */
  supervisorCpuMsPerTurn: number;
  /** The CPU of the server's PostgreSQL backends per turn (null where /proc cannot tell: a remote database). */
  pgCpuMsPerTurn: number | null;
  /** The bench's own process (the load clients, on the same machine) per turn. */
  clientsCpuMsPerTurn: number;
  rssMiB: number;
  healthzP99: number;
  /** Turns that ended during the warm-up, from the server's cold start, and their p50 (s). */
  coldTurns: number;
  coldP50: number | null;
}

/** CPU time of a set of processes (the server's tree) and, apart, of its first (a supervisor). */
const cpuOf = (pids: readonly number[]) => ({
  all: pids.reduce((sum, pid) => sum + safeCpu(pid), 0),
  first: safeCpu(pids[0]!),
});

/**
 * `SESSIONS` clients in closed loops of session + turn against `server`: `WARMUP` seconds from the server's cold start,
 * then the measured window of `SECONDS`. Figures are of the window: the turns that ended in it, and the CPU spent in
 * it. Turns/s is each client's whole cycles that ended in the window over the client time they spanned (Little's law
 * for a closed loop: sessions ÷ mean turn time, a failed attempt and its pause counting as time without a turn), not a
 * count of turns in the window: the clients move in waves (every model call takes the same time), so a count would
 * swing by up to a wave with where the window's edges fall.
 */
async function load(
  name: string,
  target: Target,
  url: string,
  headers: Record<string, string>,
  pids: () => number[],
  databaseUrl: string,
) {
  const client = new HttpClient(url, headers, SESSIONS);
  const agent = await target.createAgent(client, 0);
  const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const healthz: number[] = [];
  const processes = pids();
  const database = await DatabaseMeter.open(databaseUrl);
  const started = performance.now();
  const windowStart = started + WARMUP * 1000;
  const windowEnd = windowStart + SECONDS * 1000;
  const inWindow = (t: number) => t >= windowStart && t < windowEnd;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        http
          .get(`${url}/healthz`, { agent: probeAgent }, (res) => res.resume().on("end", resolve))
          .on("error", () => resolve());
      });
      if (inWindow(t0)) healthz.push(performance.now() - t0);
      await sleep(250);
    }
  })();
  // The window's edges, read by timers while the clients run.
  const edges = (async () => {
    await sleep(windowStart - performance.now());
    const from = { cpu: cpuOf(processes), database: await database.mark(), clients: process.cpuUsage() };
    await sleep(windowEnd - performance.now());
    const to = cpuOf(processes);
    const clients = process.cpuUsage(from.clients);
    const databaseCost = await database.since(from.database);
    return {
      cpuMs: to.all - from.cpu.all,
      supervisorCpuMs: to.first - from.cpu.first,
      clientsCpuMs: (clients.user + clients.system) / 1000,
      databaseCost,
    };
  })();
  const times: number[] = [];
  /** How long the session's creation took, of each turn's time (the rest: post, model, follow to the idle entry). */
  const creates: number[] = [];
  const coldTimes: number[] = [];
  let clientMs = 0;
  let errors = 0;
  let firstError: string | undefined;
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, i) => {
      while (performance.now() < windowEnd) {
        const t0 = performance.now();
        try {
          const session = await target.createSession(client, agent);
          const t1 = performance.now();
          await target.turn(client, session, `Hello ${i}`, TURN_TIMEOUT_MS);
          const end = performance.now();
          if (inWindow(end)) {
            creates.push(t1 - t0);
            times.push(end - t0);
            clientMs += end - t0;
          } else if (end < windowStart) coldTimes.push(end - t0);
        } catch (error) {
          const failed = performance.now();
          errors++;
          firstError ??= String(error).slice(0, 300);
          await sleep(1000);
          if (inWindow(failed)) clientMs += performance.now() - t0;
        }
      }
    }),
  );
  const { cpuMs, supervisorCpuMs, clientsCpuMs, databaseCost } = await edges;
  await database.close();
  probing = false;
  await probe;
  probeAgent.destroy();
  client.close();
  const turnsPerSecond = clientMs > 0 ? (times.length * SESSIONS) / (clientMs / 1000) : 0;
  /** The turns the window's CPU served: its rate times its length. */
  const served = Math.max(1, turnsPerSecond * SECONDS);
  const result: Result = {
    name,
    turns: times.length,
    errors,
    firstError,
    turnsPerSecond,
    p50: percentile(times, 50) / 1000,
    p95: percentile(times, 95) / 1000,
    createP50: percentile(creates, 50),
    createP95: percentile(creates, 95),
    // With several processes the first is the supervisor (node:cluster's primary accepts each connection and hands
    // it to a child); alone, it is the server itself.
    cpuMsPerTurn: cpuMs / served,
    supervisorCpuMsPerTurn: processes.length > 1 ? supervisorCpuMs / served : 0,
    pgCpuMsPerTurn: databaseCost.cpuMs === null ? null : databaseCost.cpuMs / served,
    clientsCpuMsPerTurn: clientsCpuMs / served,
    rssMiB: processes.reduce((sum, pid) => sum + peakRssMiB(pid), 0),
    healthzP99: percentile(healthz, 99),
    coldTurns: coldTimes.length,
    coldP50: coldTimes.length ? percentile(coldTimes, 50) / 1000 : null,
  };
  log(`  ${name}: ${JSON.stringify(result)}`);
  return result;
}

const started: Started[] = [];
const databases: { url: string; drop(): Promise<void> }[] = [];
const dirs: string[] = [];
const results: Result[] = [];
const extraRows: string[][] = [];
try {
  const fake = await startProcess(
    [...TSX, "bench/e2e/fake-model-process.ts"],
    { FAKE_MODEL_DELAY_MS: String(MODEL_MS) },
    /LISTENING (\S+)/,
  );
  started.push(fake);
  out(
    `bench:scale · ${SESSIONS} concurrent sessions · model answers after ${MODEL_MS / 1000} s · ${WARMUP} s of warm-up, ${SECONDS} s measured · ` +
      `${availableParallelism()} cores · load average before ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
  );

  if (!args["no-floor"]) {
    const db = await freshDatabase();
    if (!db) throw new Error("bench:scale needs PostgreSQL (set BENCH_DATABASE_URL)");
    databases.push(db);
    log("floor…");
    const bare = await startProcess(
      [...TSX, "bench/e2e/bare-e2e-server.ts"],
      { DATABASE_URL: db.url, MODEL_URL: fake.url },
      /LISTENING (\S+)/,
    );
    started.push(bare);
    results.push(await load("floor (bare node:http + pg)", bareTarget, bare.url, {}, () => [bare.child.pid!], db.url));
    await stopProcess(bare.child);
  }

  const runPlatform = async (name: string, workers?: number) => {
    const db = await freshDatabase();
    if (!db) throw new Error("bench:scale needs PostgreSQL (set BENCH_DATABASE_URL)");
    databases.push(db);
    const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-scale-"));
    dirs.push(dataDir);
    const key = `ap_bench_${randomBytes(16).toString("hex")}`;
    const env = benchPlatformEnv({ databaseUrl: db.url, dataDir, apiKey: key, modelUrl: fake.url, separate: true });
    log(`${name}…`);
    const mine: Started[] = [];
    // PROCESSES blank: the default of `pnpm start` (one process per core).
    const api = await startPlatformProcess(
      workers === undefined ? { ...env, PROCESSES: args.processes ?? "" } : { ...env, ROLE: "api" },
    );
    mine.push(api);
    if (workers !== undefined) {
      mine.push(await startPlatformProcess({ ...env, ROLE: "worker", PROCESSES: String(workers) }));
    }
    started.push(...mine);
    const pids = () => mine.flatMap((p) => processTree(p.child.pid!));
    const auth = { authorization: `Bearer ${key}` };
    const context = await new HttpClient(api.url, auth, 1).request("GET", "/v1/platform/context");
    const projectId = (JSON.parse(context.body) as { project: { id: string } }).project.id;
    results.push(await load(name, platformTarget(projectId), api.url, auth, pids, db.url));

    // ── Followers (issue #39, item 3) ───────────────────────────────────────────────────────────────────────────────
    // `bench/scale/followers.ts`, when present, exports `measureFollowers(context)`; it runs against the platform as
    // started with the defaults, after the sessions' load, and its rows are added to the report.
    if (workers === undefined && !args["no-followers"] && existsSync(join(import.meta.dirname, "followers.ts"))) {
      const { measureFollowers } = (await import(join(import.meta.dirname, "followers.ts"))) as {
        measureFollowers: ScaleMeasurement;
      };
      const ctx: ScaleContext = {
        platformUrl: api.url,
        apiKey: key,
        projectId,
        modelUrl: fake.url,
        modelDelayMs: MODEL_MS,
        pids,
        out,
      };
      extraRows.push(...(await measureFollowers(ctx)));
    }
    // ─────────────────────────────────────────────────────────────────────────────────────────────────────────────────
    for (const p of mine.reverse()) await stopProcess(p.child);
  };

  if (args.workers) {
    for (const n of args.workers.split(",").map(Number))
      await runPlatform(`platform, 1 api + ${n} worker processes`, n);
  } else {
    await runPlatform(
      `platform, pnpm start defaults (ROLE=all, PROCESSES=${args.processes || availableParallelism()})`,
    );
  }

  const floor = results.find((r) => r.name.startsWith("floor"));
  const rows = results.map((r) => [
    r.name,
    `${r.turnsPerSecond.toFixed(1)}${floor && r !== floor ? ` (${(r.turnsPerSecond / floor.turnsPerSecond).toFixed(2)}×)` : ""}`,
    `${r.p50.toFixed(2)} s`,
    `${r.p95.toFixed(2)} s`,
    `${r.createP50.toFixed(0)} / ${r.createP95.toFixed(0)} ms`,
    `${r.cpuMsPerTurn.toFixed(1)} ms${r.supervisorCpuMsPerTurn ? ` (supervisor ${r.supervisorCpuMsPerTurn.toFixed(1)})` : ""}`,
    r.pgCpuMsPerTurn === null ? "n/a" : `${r.pgCpuMsPerTurn.toFixed(1)} ms`,
    `${r.clientsCpuMsPerTurn.toFixed(1)} ms`,
    `${r.rssMiB.toFixed(0)} MiB`,
    `${r.healthzP99.toFixed(0)} ms`,
    `${r.turns} / ${r.errors}`,
    r.coldP50 === null ? "–" : `${r.coldP50.toFixed(2)} s (${r.coldTurns})`,
  ]);
  const header = [
    "server",
    "turns/s",
    "p50 turn",
    "p95 turn",
    "of which creating the session, p50 / p95",
    "server CPU/turn",
    "PostgreSQL CPU/turn",
    "clients' CPU/turn",
    "peak RSS (sum)",
    "/healthz p99",
    "turns / errors",
    `first ${WARMUP} s from a cold start: p50 turn (turns)`,
  ];
  out("");
  for (const l of markdownTable(header, rows)) out(l);
  for (const row of extraRows) out(`| ${row.join(" | ")} |`);
  for (const r of results) if (r.firstError) out(`first error (${r.name}): ${r.firstError}`);
  out(
    `load average after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (a shared machine: compare within one run)`,
  );
} finally {
  for (const p of started.reverse()) await stopProcess(p.child);
  if (process.env.BENCH_KEEP_DB) log(`kept: ${databases.map((d) => d.url).join(" ")}`);
  else for (const db of databases) await db.drop().catch(() => {});
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
