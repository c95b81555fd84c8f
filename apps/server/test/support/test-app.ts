import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import supertest from "supertest";
import { loadConfig } from "../../src/config.js";
import { type RunningPlatform, startPlatform } from "../../src/platform-process.js";
import { createTestDatabase, type TestDatabase } from "./database.js";
import { createTenant, type Tenant } from "./factories.js";

export interface TestApp {
  platform: RunningPlatform;
  /** Base URL of the real listening server. */
  url: string;
  http: supertest.Agent;
  /** A fresh workspace + project + admin key, ready to use. */
  tenant: Tenant;
  newTenant(role?: "admin" | "member"): Promise<Tenant>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** `api` (default: no background work) or `all` (API + worker + scheduler). */
  role?: "api" | "all" | "worker";
  env?: Record<string, string>;
  /** Every log line is also pushed here (at LOG_LEVEL, `silent` unless set). */
  logLines?: string[];
  /** The URL the platform connects with, from the test database's (to route it through a relay). */
  databaseUrl?: (url: string) => string;
  /** A database of the test's own (migrated) instead of a clone of the template (e.g. one the test restarts). */
  database?: TestDatabase;
}

/**
 * The loopback servers tests start (MCP, serverless endpoints, pages to fetch) are refused by the outbound address
 * policy unless opened: every test app (and worker process) opens loopback. SSRF tests pass `EGRESS_ALLOW_CIDRS: ""`.
 */
export const TEST_EGRESS_ALLOW_CIDRS = "127.0.0.0/8,::1/128";

/** Starts the real platform (HTTP on a loopback port) on a database of its own. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database: TestDatabase = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    DATABASE_URL: options.databaseUrl?.(database.url) ?? database.url,
    DATA_DIR: mkdtempSync(join(tmpdir(), "ap-test-")),
    SECRETS_KEY: randomBytes(32).toString("base64"),
    PORT: "0",
    HOST: "127.0.0.1",
    ROLE: options.role ?? "api",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    EGRESS_ALLOW_CIDRS: TEST_EGRESS_ALLOW_CIDRS,
    // The event-loop back-pressure depends on the machine's load, so a loaded CI machine would route a turn through the
    // queue that a test expects to start in place; its behaviour is tested with the runner (test/jobs/job-runner.test.ts).
    WORKER_MAX_EVENT_LOOP_DELAY_MS: "0",
    ...options.env,
  });
  const lines = options.logLines;
  if (lines) config.logDestination = { write: (line: string) => void lines.push(line) };
  const platform = await startPlatform(config);
  const url = platform.url!;
  const http = supertest.agent(url);
  const newTenant = (role: "admin" | "member" = "admin") => createTenant(platform.ctx.db.prisma, role);
  return {
    platform,
    url,
    http,
    tenant: await newTenant(),
    newTenant,
    async close() {
      await platform.close();
      await database.drop();
    },
  };
}
