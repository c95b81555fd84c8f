// `pnpm bench:load`: 500 sessions at once against the platform (built, ROLE=all, default settings), each sending a
// message, following its log over SSE until the turn ends, and again, for LOAD_SECONDS; the model answers after
// FAKE_MODEL_DELAY_MS (300 by default), like a real provider. Reports turns/s, turn latency, errors, the server's peak
// RSS and the most database connections it held, and its database's side (PostgreSQL CPU and WAL per turn).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { DatabaseMeter } from "../e2e/database-cost.js";
import {
  cpuTimeMs,
  peakRssMiB,
  type Started,
  startPlatformProcess,
  startProcess,
  stopProcess,
  TSX,
} from "../e2e/processes.js";
import { HttpClient, platformTarget } from "../e2e/targets.js";
import { benchPlatformEnv, freshDatabase, percentile } from "../support.js";

const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 500);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 30);
const DELAY_MS = process.env.FAKE_MODEL_DELAY_MS ?? "300";
const out = (line: string) => process.stdout.write(`${line}\n`);

const database = await freshDatabase();
if (!database) throw new Error("the load bench needs PostgreSQL (set BENCH_DATABASE_URL)");
const dataDir = mkdtempSync(join(tmpdir(), "ap-load-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const started: Started[] = [];
const admin = new pg.Client({ connectionString: database.url });
try {
  const fake = await startProcess(
    [...TSX, "bench/e2e/fake-model-process.ts"],
    { FAKE_MODEL_DELAY_MS: DELAY_MS },
    /LISTENING (\S+)/,
  );
  started.push(fake);
  const platform = await startPlatformProcess({
    ...benchPlatformEnv({ databaseUrl: database.url, dataDir, apiKey: key, modelUrl: fake.url, separate: true }),
    // Defaults unless the run overrides them.
    ...(process.env.WORKER_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY } : {}),
  });
  started.push(platform);
  await admin.connect();
  const auth = { authorization: `Bearer ${key}` };
  const setup = new HttpClient(platform.url, auth, 50);
  const context = JSON.parse((await setup.request("GET", "/v1/platform/context")).body) as { project: { id: string } };
  const target = platformTarget(context.project.id);
  const agentId = await target.createAgent(setup, 0);
  const sessions: string[] = [];
  while (sessions.length < SESSIONS) {
    const batch = Math.min(50, SESSIONS - sessions.length);
    sessions.push(...(await Promise.all(Array.from({ length: batch }, () => target.createSession(setup, agentId)))));
  }
  setup.close();
  out(
    `load · ${SESSIONS} sessions · model delay ${DELAY_MS} ms · ${SECONDS} s · platform ${platform.url} (ROLE=all, defaults)`,
  );

  let maxConnections = 0;
  const sampler = setInterval(() => {
    admin
      .query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      )
      .then(({ rows }) => {
        maxConnections = Math.max(maxConnections, rows[0]!.n);
      })
      .catch(() => {});
  }, 250);

  const client = new HttpClient(platform.url, auth, SESSIONS);
  const latencies: number[] = [];
  const errors: string[] = [];
  const until = performance.now() + SECONDS * 1000;
  const begun = performance.now();
  const cpuBefore = cpuTimeMs(platform.child.pid!);
  const databaseMeter = await DatabaseMeter.open(database.url);
  const databaseBefore = await databaseMeter.mark();
  await Promise.all(
    sessions.map(async (sessionId, i) => {
      for (let turn = 0; performance.now() < until; turn++) {
        const t0 = performance.now();
        try {
          await target.turn(client, sessionId, `Session ${i}, turn ${turn}`);
          latencies.push(performance.now() - t0);
        } catch (error) {
          errors.push(String(error).slice(0, 200));
        }
      }
    }),
  );
  const elapsed = (performance.now() - begun) / 1000;
  const cpuMs = cpuTimeMs(platform.child.pid!) - cpuBefore;
  const databaseCost = await databaseMeter.since(databaseBefore);
  await databaseMeter.close();
  clearInterval(sampler);
  client.close();
  const peak = peakRssMiB(platform.child.pid!);
  const rows: [string, string][] = [
    ["Turns completed", `${latencies.length} in ${elapsed.toFixed(1)} s`],
    ["Turns/second", (latencies.length / elapsed).toFixed(1)],
    [
      "Turn latency p50 / p95 (post → idle on the stream)",
      `${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 95).toFixed(0)} ms`,
    ],
    ["Server CPU per turn", `${(cpuMs / Math.max(1, latencies.length)).toFixed(1)} ms`],
    [
      "PostgreSQL CPU per turn (the database's backends)",
      databaseCost.cpuMs === null ? "?" : `${(databaseCost.cpuMs / Math.max(1, latencies.length)).toFixed(1)} ms`,
    ],
    [
      "WAL per turn",
      databaseCost.walBytes === null ? "?" : `${(databaseCost.walBytes / Math.max(1, latencies.length)).toFixed(0)} B`,
    ],
    ["Errors", `${errors.length}${errors.length ? ` (first: ${errors[0]})` : ""}`],
    ["Peak RSS of the server", `${peak.toFixed(0)} MiB`],
    ["Most database connections held", `${maxConnections} (pool 20 + 1 LISTEN)`],
  ];
  if (errors.length > 0) {
    const logged = platform
      .output()
      .split("\n")
      .filter((line) => /"level":(40|50|60)/.test(line));
    out(`platform warnings and errors (${logged.length}, last 5):\n${logged.slice(-5).join("\n")}`);
  }
  out("");
  out("| Measure | Result |");
  out("|---|---|");
  for (const [label, value] of rows) out(`| ${label} | ${value} |`);
  out("");
} finally {
  await admin.end().catch(() => {});
  for (const p of started.reverse()) await stopProcess(p.child);
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
