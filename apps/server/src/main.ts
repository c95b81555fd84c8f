import "./v8-flags.js";
import { EmbeddedPostgresUnavailable } from "@agent-platform/db";
import { loadConfig } from "./config.js";
import { DatabaseWaitExpired } from "./lib/wait-for-database.js";
import { startPlatform } from "./platform-process.js";

const config = loadConfig();
const platform = await startPlatform(config).catch((error: unknown) => {
  // Said in one line (no database within DATABASE_WAIT_S; an embedded one that cannot run here): a non-zero exit.
  if (error instanceof EmbeddedPostgresUnavailable) process.stderr.write(`${error.message}\n`);
  if (error instanceof DatabaseWaitExpired || error instanceof EmbeddedPostgresUnavailable) process.exit(1);
  throw error;
});
const { logger } = platform.ctx;

if (platform.url) {
  const lines = [
    "",
    `Agent Platform is running (ROLE=${config.role})`,
    `  Base URL:   ${platform.url}`,
    `  API docs:   ${platform.url}/docs`,
    `  Console:    ${platform.url}/console`,
    `  Project id: ${platform.bootstrap?.projectId ?? "(none yet: POST /v1/projects)"}`,
  ];
  if (platform.bootstrap?.generated) {
    lines.push(`  API key:    ${platform.bootstrap.apiKey}   (shown once; also saved to ${config.dataDir}/api-key)`);
  } else if (config.bootstrapApiKey) {
    lines.push("  API key:    the value of BOOTSTRAP_API_KEY");
  } else {
    lines.push(`  API key:    created on the first start (see ${config.dataDir}/api-key)`);
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
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
