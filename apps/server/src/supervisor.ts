import cluster, { type Worker } from "node:cluster";
import { applyMigrations, type EmbeddedDatabase, startEmbeddedPostgres } from "@agent-platform/db";
import { startBanner } from "./banner.js";
import type { Config } from "./config.js";
import { integerSetting } from "./lib/env.js";
import { metricsHub } from "./lib/telemetry/cluster-metrics.js";
import { whenDatabaseAnswers } from "./lib/wait-for-database.js";
import { createLogger } from "./logger.js";
import { type ChildReady, isChildReady } from "./processes.js";
import { resolveSecretsKey } from "./secrets-key.js";

/** A child that ran at least this long is restarted at once; one that dies sooner waits 1 s, doubling up to 30 s. */
const HEALTHY_AFTER_MS = 60_000;
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;

interface Slot {
  index: number;
  worker?: Worker;
  startedAt: number;
  failures: number;
  timer?: NodeJS.Timeout;
}

/**
 * `pnpm start` with PROCESSES > 1: this process (the cluster's primary) starts the embedded PostgreSQL when there is no
 * DATABASE_URL, applies the migrations once, then runs `processes` children of the configured ROLE, which share the
 * HTTP port (node:cluster hands each connection to one of them). A child that dies is started again with backoff; its
 * turns and jobs are recovered as any dead worker's (their leases expire). SIGTERM or SIGINT stops every child
 * gracefully (each drains as a single process does), then the database.
 */
export async function supervise(config: Config, processes: number): Promise<void> {
  const logger = createLogger(config.logLevel, config.logDestination);
  let embedded: EmbeddedDatabase | undefined;
  const poolMax = integerSetting(config.env, "DATABASE_POOL_MAX", 20, 1, 1000);
  if (!config.databaseUrl) {
    // Each child: its pool, its LISTEN connection; a margin for the supervisor, migrations and an operator's psql.
    const maxConnections = Math.max(100, processes * (poolMax + 1) + 20);
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      maxConnections,
      log: (line) => logger.debug({ pg: line }),
    });
  }
  const connectionString = config.databaseUrl ?? embedded!.connectionString;
  // The migrations need a session of their own: directly, when the pool goes through a pooler.
  const directString = config.env.DATABASE_LISTEN_URL || connectionString;
  const childEnv = {
    DATABASE_URL: connectionString,
    SECRETS_KEY: resolveSecretsKey(config),
    // The children's own supervisor is this one: they must not start another.
    PROCESSES: "1",
  };
  try {
    // Once, before the children: migrations take no lock, so children started on a fresh database would race.
    const applied = await whenDatabaseAnswers(directString, { env: config.env, logger }, () =>
      applyMigrations(directString),
    );
    if (applied.length) logger.info({ applied }, "migrations applied");
  } catch (error) {
    await embedded?.stop();
    throw error;
  }

  const slots: Slot[] = Array.from({ length: processes }, (_, index) => ({ index, startedAt: 0, failures: 0 }));
  const ready = new Map<number, ChildReady>();
  let bannerPrinted = false;
  let stopping = false;

  // A scrape of /metrics taken by one child is answered with every child's metrics.
  const metrics = metricsHub(() =>
    slots.flatMap((slot) => (slot.worker && !slot.worker.isDead() ? [{ index: slot.index, worker: slot.worker }] : [])),
  );

  const start = (slot: Slot) => {
    slot.timer = undefined;
    slot.startedAt = Date.now();
    const worker = cluster.fork(childEnv);
    slot.worker = worker;
    worker.on("message", (message: unknown) => {
      metrics.handle(worker, message);
      if (!isChildReady(message)) return;
      ready.set(slot.index, message);
      logger.info({ child: slot.index, pid: worker.process.pid }, "child process started");
      if (!bannerPrinted && ready.size === processes) {
        bannerPrinted = true;
        const all = [...ready.values()];
        const url = all.find((m) => m.url)?.url;
        const bootstrap = all.find((m) => m.bootstrap?.generated)?.bootstrap ?? all[0]?.bootstrap ?? null;
        if (url) process.stdout.write(startBanner(config, url, bootstrap, processes));
        else logger.info({ role: config.role, processes }, "worker started");
      }
    });
    worker.on("exit", (code, signal) => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      if (stopping) return;
      const lived = Date.now() - slot.startedAt;
      slot.failures = lived >= HEALTHY_AFTER_MS ? 0 : slot.failures + 1;
      const delay = slot.failures === 0 ? 0 : Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** (slot.failures - 1));
      logger.error(
        { child: slot.index, pid: worker.process.pid, code, signal, restartInMs: delay },
        "child process exited; starting it again (its work resumes once its leases expire)",
      );
      slot.timer = setTimeout(() => start(slot), delay);
    });
  };
  for (const slot of slots) start(slot);

  const stop = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, "shutting down");
    const exits = slots.map((slot) => {
      clearTimeout(slot.timer);
      const worker = slot.worker;
      if (!worker || worker.isDead()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        worker.once("exit", () => resolve());
        worker.process.kill("SIGTERM");
      });
    });
    await Promise.all(exits);
    try {
      await embedded?.stop();
    } catch (err) {
      logger.error({ err }, "the embedded database did not stop cleanly");
      code = 1;
    }
    process.exit(code);
  };
  process.on("SIGINT", () => void stop("SIGINT", 0));
  process.on("SIGTERM", () => void stop("SIGTERM", 0));
  process.on("uncaughtException", (err) => {
    logger.fatal({ err }, "uncaught exception in the supervisor");
    void stop("uncaughtException", 1);
  });
}
