import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { parseRateLimit } from "../../src/http/rate-limit.js";
import { type RunningPlatform, startPlatform } from "../../src/platform-process.js";
import { expectError } from "../support/expect-error.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

const LIMIT = 4;
let t: TestApp;
let replica: RunningPlatform;
let unlimited: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  // A second API process on the same database: the limit is held in PostgreSQL, not in a process.
  const config = t.platform.ctx.config;
  replica = await startPlatform(
    loadConfig({
      DATABASE_URL: config.databaseUrl!,
      SECRETS_KEY: config.secretsKey!,
      DATA_DIR: mkdtempSync(join(tmpdir(), "ap-replica-")),
      PORT: "0",
      ROLE: "api",
      LOG_LEVEL: "silent",
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
    }),
  );
  unlimited = await startTestApp();
});

afterAll(async () => {
  await replica?.close();
  await t?.close();
  await unlimited?.close();
});

const rows = async (app: TestApp) =>
  Number((await app.platform.ctx.db.pool.query("SELECT count(*) AS n FROM rate_limits")).rows[0].n);

describe("RATE_LIMIT_PER_MINUTE", () => {
  it("counts requests per API key across replicas, then answers 429 rate_limit.exceeded with Retry-After", async () => {
    const tenant = await t.newTenant();
    const servers = [t.http, supertest.agent(replica.url!)];
    const remaining: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await servers[i % 2]!.get("/v1/platform/context").set(tenant.auth);
      expect(res.status).toBe(200);
      expect(res.headers["ratelimit-limit"]).toBe(String(LIMIT));
      const reset = Number(res.headers["ratelimit-reset"]);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      remaining.push(Number(res.headers["ratelimit-remaining"]));
    }
    expect(remaining).toEqual([3, 2, 1, 0]);

    for (const server of servers) {
      const refused = await server.get("/v1/platform/context").set(tenant.auth);
      expectError(refused, 429, "rate_limit.exceeded");
      expect(refused.body.error.message).toMatch(/at most 4 requests per minute per API key/);
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers["ratelimit-remaining"]).toBe("0");
    }
    // Another key has its own count.
    const other = await t.newTenant();
    const fresh = await t.http.get("/v1/platform/context").set(other.auth);
    expect(fresh.status).toBe(200);
    expect(fresh.headers["ratelimit-remaining"]).toBe(String(LIMIT - 1));
  });

  it("refuses writes over the limit before they run", async () => {
    const tenant = await t.newTenant();
    for (let i = 0; i < LIMIT; i++) {
      expect((await t.http.get("/v1/vaults").set(tenant.auth)).status).toBe(200);
    }
    const refused = await t.http.post("/v1/vaults").set(tenant.auth).send({ name: "over-the-limit" });
    expectError(refused, 429, "rate_limit.exceeded");
    expect(await t.platform.ctx.db.prisma.vault.count({ where: { workspaceId: tenant.workspaceId } })).toBe(0);
  });

  it("does not count requests without a valid key", async () => {
    const res = await t.http.get("/v1/platform/context");
    expectError(res, 401, "auth.unauthorized");
    expect(res.headers["ratelimit-limit"]).toBeUndefined();
  });

  it("is off when unset: no headers, no counters", async () => {
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await unlimited.http.get("/v1/platform/context").set(unlimited.tenant.auth);
      expect(res.status).toBe(200);
      expect(res.headers["ratelimit-limit"]).toBeUndefined();
    }
    expect(await rows(unlimited)).toBe(0);
  });

  it("accepts only a positive integer", () => {
    expect(parseRateLimit(undefined)).toBeNull();
    expect(parseRateLimit("")).toBeNull();
    expect(parseRateLimit("600")).toBe(600);
    for (const bad of ["0", "-1", "1.5", "many"]) {
      expect(() => parseRateLimit(bad)).toThrow(/RATE_LIMIT_PER_MINUTE must be a positive integer/);
    }
  });
});
