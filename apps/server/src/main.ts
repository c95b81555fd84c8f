import "./v8-flags.js";
import cluster from "node:cluster";
import { EmbeddedPostgresUnavailable } from "@agent-platform/db";
import { startBanner } from "./banner.js";
import { loadConfig } from "./config.js";
import { DatabaseWaitExpired } from "./lib/wait-for-database.js";
import { startPlatform } from "./platform-process.js";
import { type ChildReady, readProcesses } from "./processes.js";
import { supervise } from "./supervisor.js";

function failedStart(error: unknown): never {
  // Said in one line (no database within DATABASE_WAIT_S; an embedded one that cannot run here): a non-zero exit.
  if (error instanceof EmbeddedPostgresUnavailable) process.stderr.write(`${error.message}\n`);
  if (error instanceof DatabaseWaitExpired || error instanceof EmbeddedPostgresUnavailable) process.exit(1);
  throw error;
}

const config = loadConfig();
const processes = readProcesses(config.env);
if (cluster.isPrimary && processes > 1) {
  // The supervisor: database, migrations, then one child per process (this file again, as a cluster worker).
  await supervise(config, processes).catch(failedStart);
} else {
  await runProcess();
}

async function runProcess(): Promise<void> {
  const platform = await startPlatform(config).catch(failedStart);
  const { logger } = platform.ctx;

  if (cluster.isWorker) {
    // A child of the supervisor, which prints the banner once for all of them.
    const ready: ChildReady = { type: "agent-platform:ready", url: platform.url, bootstrap: platform.bootstrap };
    process.send?.(ready);
  } else if (platform.url) {
    process.stdout.write(startBanner(config, platform.url, platform.bootstrap));
  } else {
    logger.info({ role: config.role }, "worker started");
  }

  let stopping = false;
  async function shutdown(reason: string, code: number) {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, "shutting down");
    try {
      await platform.close();
    } catch (err) {
      logger.error({ err }, "shutdown failed");
      code = 1;
    } finally {
      process.exit(code);
    }
  }
  process.on("SIGINT", () => void shutdown("SIGINT", 0));
  process.on("SIGTERM", () => void shutdown("SIGTERM", 0));
  // Also on a crash: the embedded PostgreSQL is stopped rather than left running without its owner.
  process.on("uncaughtException", (err) => {
    logger.fatal({ err }, "uncaught exception");
    void shutdown("uncaughtException", 1);
  });
  process.on("unhandledRejection", (err) => {
    logger.fatal({ err }, "unhandled rejection");
    void shutdown("unhandledRejection", 1);
  });
}
