import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, loadConfig } from "../../src/config.js";
import { type RunningPlatform, startPlatform } from "../../src/platform-process.js";
import { createTestDatabase, type TestDatabase } from "./database.js";
import { createTenant, type Tenant } from "./factories.js";
import { TEST_EGRESS_ALLOW_CIDRS } from "./test-app.js";

export interface RestartableApi {
  url: string;
  config: Config;
  tenant: Tenant;
  /** Stops the API (open streams end, as in a deploy) and starts a new one on the same port and database. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A `ROLE=api` platform on its own database that a test can restart on the same port. */
export async function startRestartableApi(env: Record<string, string> = {}): Promise<RestartableApi> {
  const database: TestDatabase = await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), "ap-test-")),
    SECRETS_KEY: randomBytes(32).toString("base64"),
    PORT: "0",
    HOST: "127.0.0.1",
    ROLE: "api",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    EGRESS_ALLOW_CIDRS: TEST_EGRESS_ALLOW_CIDRS,
    SHUTDOWN_GRACE_MS: "200",
    ...env,
  });
  let platform: RunningPlatform | undefined = await startPlatform(config);
  const url = platform.url!;
  config.port = Number(new URL(url).port);
  const tenant = await createTenant(platform.ctx.db.prisma);
  return {
    url,
    config,
    tenant,
    async restart() {
      await platform?.close();
      platform = undefined;
      platform = await startPlatform(config);
    },
    async close() {
      await platform?.close();
      await database.drop();
    },
  };
}
