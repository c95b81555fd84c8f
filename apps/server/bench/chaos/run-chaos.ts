// `pnpm chaos`: crash trials against the real platform. The API runs in this process on a fresh database; a worker
// process runs the turns and is killed with SIGKILL at random moments and started again; after each trial every turn
// must have completed exactly once (see crash-trial.ts). CHAOS_TRIALS (default 100) and CHAOS_SEED replay a run.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.js";
import { startPlatform } from "../../src/platform-process.js";
import { startFakeOpenAI } from "../../test/support/fake-openai.js";
import { startPlatformProcess } from "../e2e/processes.js";
import { freshDatabase } from "../support.js";
import { chaosReply, runCrashTrial, seededRandom } from "./crash-trial.js";

const TRIALS = Number(process.env.CHAOS_TRIALS ?? 100);
const SEED = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
const out = (line: string) => process.stdout.write(`${line}\n`);

const database = await freshDatabase();
if (!database) throw new Error("pnpm chaos needs PostgreSQL (BENCH_DATABASE_URL)");
const random = seededRandom(SEED);
const fake = await startFakeOpenAI();
fake.respondWith(chaosReply(random));
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
let failed = 0;
let turns = 0;
let kills = 0;
const started = performance.now();
try {
  out(`crash trials: ${TRIALS}, seed ${SEED}`);
  for (let trial = 1; trial <= TRIALS; trial++) {
    const result = await runCrashTrial(
      {
        apiUrl: platform.url!,
        projectId: platform.bootstrap!.projectId,
        apiKey: key,
        startWorker: async () => {
          const dir = mkdtempSync(join(tmpdir(), "ap-chaos-worker-"));
          return (await startPlatformProcess({ ...workerEnv, ROLE: "worker", DATA_DIR: dir, LOG_LEVEL: "info" })).child;
        },
      },
      random,
      { sessions: 6, kills: 1 + Math.floor(random() * 3), killWindowMs: 1500 },
    );
    result.worker.kill("SIGKILL");
    turns += result.turns;
    kills += result.kills;
    if (result.failures.length > 0) failed++;
    out(
      `trial ${trial}: ${result.turns} turns, ${result.kills} kills, ${result.failures.length ? result.failures.join("; ") : "ok"}`,
    );
  }
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  out(
    `\n${TRIALS - failed}/${TRIALS} trials passed · ${turns} turns · ${kills} SIGKILLs · ${minutes} min · seed ${SEED}`,
  );
} finally {
  await platform.close();
  await fake.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed > 0 ? 1 : 0);
