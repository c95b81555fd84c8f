// `pnpm chaos`: crash trials against the real platform. The API runs in this process on a fresh database; a worker
// process runs tool turns, confirmations, delegations, automation firings and experiments, and is killed with SIGKILL
// at random moments and started again; after each trial everything started must have completed exactly once (see
// crash-trial.ts). CHAOS_TRIALS (default 100) and CHAOS_SEED replay a run; a summary line per scenario ends it.
// CHAOS_KILLED_ROLE=all kills a process that also serves an API instead (follow-up messages go to it, so the turns
// its ingestion claims are killed too). CHAOS_FAULT=db-restart restarts the database instead (a PostgreSQL of the
// run's own, stopped for 1–5 s and started again, 1–3 times a trial), every process left running: nothing may be lost
// or doubled, and the work must resume by itself.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.js";
import { startPlatform } from "../../src/platform-process.js";
import { startFakeOpenAI } from "../../test/support/fake-openai.js";
import { startPlatformProcess } from "../e2e/processes.js";
import { freePort, freshDatabase } from "../support.js";
import { runCrashTrial, seededRandom, type TrialSizes } from "./crash-trial.js";
import { scheduleFastForward } from "./fast-forward.js";
import { chaosModel } from "./model-router.js";
import { startRestartableDatabase } from "./restartable-database.js";

const TRIALS = Number(process.env.CHAOS_TRIALS ?? 100);
const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
const KILLED_ROLE = process.env.CHAOS_KILLED_ROLE === "all" ? "all" : "worker";
const RESTARTS = process.env.CHAOS_FAULT === "db-restart";
const out = (line: string) => process.stdout.write(`${line}\n`);

const restartable = RESTARTS ? await startRestartableDatabase() : undefined;
const database = restartable ? { url: restartable.url, drop: () => restartable.close() } : await freshDatabase();
if (!database) throw new Error("pnpm chaos needs PostgreSQL (BENCH_DATABASE_URL)");
const random = seededRandom(SEED);
const fake = await startFakeOpenAI();
fake.respondWith(chaosModel);
const dataDir = mkdtempSync(join(tmpdir(), "ap-chaos-"));
const key = `ap_chaos_${randomBytes(16).toString("hex")}`;
const secretsKey = randomBytes(32).toString("base64");
const platform = await startPlatform(
  loadConfig({
    DATABASE_URL: database.url,
    SECRETS_KEY: secretsKey,
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    ROLE: "api",
    BOOTSTRAP_API_KEY: key,
    OPENAI_COMPATIBLE_BASE_URL: fake.url,
    LOG_LEVEL: "warn",
  }),
);
const workerEnv = {
  DATABASE_URL: database.url,
  SECRETS_KEY: secretsKey,
  OPENAI_COMPATIBLE_BASE_URL: fake.url,
  WORKER_LEASE_MS: "2000",
};
const sizes: TrialSizes = {
  toolTurns: 4,
  confirmations: 2,
  delegations: 2,
  manualRuns: 3,
  scheduledFirings: 2,
  experimentCases: 4,
  experimentKinds: ["model", "agent"],
  followUps: 2,
};
// A killed ROLE=all process comes back on the same address, where the follow-ups' client retries.
const killedPort = KILLED_ROLE === "all" ? await freePort() : undefined;
// A failing trial leaves its workers' output in this directory, and the database is kept for inspection.
const logDir = join(tmpdir(), `ap-chaos-${SEED}`);
const summary = new Map<string, { unit: string; units: number; failures: number; trials: number }>();
let failed = 0;
let kills = 0;
const settleTimes: number[] = [];
const started = performance.now();
try {
  out(
    RESTARTS
      ? `database-restart trials: ${TRIALS}, seed ${SEED}, work run by ROLE=${KILLED_ROLE}`
      : `crash trials: ${TRIALS}, seed ${SEED}, killed process ROLE=${KILLED_ROLE}`,
  );
  for (let trial = 1; trial <= TRIALS; trial++) {
    const trialStarted = performance.now();
    const workers: { output(): string }[] = [];
    const result = await runCrashTrial(
      {
        apiUrl: platform.url!,
        projectId: platform.bootstrap!.projectId,
        apiKey: key,
        ...(killedPort ? { killedApiUrl: `http://127.0.0.1:${killedPort}` } : {}),
        startWorker: async () => {
          const dir = mkdtempSync(join(tmpdir(), "ap-chaos-worker-"));
          const started = await startPlatformProcess({
            ...workerEnv,
            ROLE: KILLED_ROLE,
            DATA_DIR: dir,
            LOG_LEVEL: "info",
            ...(killedPort ? { PORT: String(killedPort), HOST: "127.0.0.1" } : {}),
          });
          workers.push(started);
          // A killed worker leaves its data folder behind: remove it once the process is gone.
          started.child.once("exit", () => rmSync(dir, { recursive: true, force: true }));
          return started.child;
        },
        fastForwardSchedule: scheduleFastForward(platform.ctx.db.pool),
        ...(restartable ? { restartDatabase: (ms: number) => restartable.restart(ms) } : {}),
      },
      random,
      {
        sizes,
        kills: 1 + Math.floor(random() * 3),
        killWindowMs: 1500,
        ...(RESTARTS ? { fault: { kind: "restart-database" as const, outageMs: [1_000, 5_000] as const } } : {}),
      },
    );
    if (result.settledAfterReturnMs !== undefined) settleTimes.push(result.settledAfterReturnMs);
    result.worker.kill("SIGKILL");
    kills += result.kills;
    if (result.failures.length > 0) {
      failed++;
      mkdirSync(logDir, { recursive: true });
      for (const [i, w] of workers.entries()) {
        writeFileSync(join(logDir, `trial-${trial}-worker-${i + 1}.log`), w.output());
      }
    }
    for (const s of result.scenarios) {
      const line = summary.get(s.name) ?? { unit: s.unit, units: 0, failures: 0, trials: 0 };
      line.units += s.units;
      line.failures += s.failures.length;
      line.trials += s.failures.length > 0 ? 1 : 0;
      summary.set(s.name, line);
    }
    const seconds = ((performance.now() - trialStarted) / 1000).toFixed(0);
    const counts = result.scenarios.map((s) => `${s.units} ${s.name}`).join(", ");
    const faults = RESTARTS
      ? `${result.kills} restarts, settled ${((result.settledAfterReturnMs ?? 0) / 1000).toFixed(1)} s after the last`
      : `${result.kills} kills`;
    out(
      `trial ${trial}: ${counts}; ${faults}, ${seconds} s, ${result.failures.length ? result.failures.join("; ") : "ok"}`,
    );
  }
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  out("");
  for (const [name, line] of summary) {
    out(`${name.padEnd(10)} ${line.units} ${line.unit} · ${line.failures} failures in ${line.trials} trials`);
  }
  if (RESTARTS) {
    const sorted = [...settleTimes].sort((a, b) => a - b);
    const at = (p: number) => (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! / 1000).toFixed(1);
    out(`\n${TRIALS - failed}/${TRIALS} trials passed · ${kills} database restarts · ${minutes} min · seed ${SEED}`);
    out(`all work settled after the database's last return: median ${at(0.5)} s, max ${at(1)} s`);
  } else {
    out(`\n${TRIALS - failed}/${TRIALS} trials passed · ${kills} SIGKILLs · ${minutes} min · seed ${SEED}`);
  }
} finally {
  await platform.close();
  await fake.close();
  // A restartable database is the run's own embedded PostgreSQL: it is always stopped and removed.
  if (failed > 0 && !restartable) out(`database kept: ${database.url}; workers' output in ${logDir}`);
  else await database.drop();
  if (failed > 0 && restartable) out(`workers' output in ${logDir}`);
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed > 0 ? 1 : 0);
