import {
  AgentPlatform,
  ConnectionError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
} from "@agent-platform/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { backoffDelay, retryAfterMs } from "../../../../packages/sdk/src/retry.js";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
let proxy: FaultProxy;
beforeAll(async () => {
  t = await startTestApp();
  proxy = await startFaultProxy(t.url);
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
});
beforeEach(() => {
  proxy.seen.length = 0;
});

const client = (extra: Partial<ConstructorParameters<typeof AgentPlatform>[0]> = {}) =>
  new AgentPlatform({ baseUrl: proxy.url, apiKey: t.tenant.key, projectId: t.tenant.projectId, ...extra });
const unavailable = {
  status: 503,
  body: { error: { code: "service.unavailable", message: "busy", requestId: "req_1" } },
};

describe("SDK retries and timeouts", () => {
  it("retries a GET after 503 and 429 (Retry-After) and succeeds", async () => {
    proxy.inject(unavailable, { status: 429, headers: { "retry-after": "0" } });
    const page = await client().agents.list();
    expect(page.data).toBeInstanceOf(Array);
    expect(proxy.seen.map((r) => r.method)).toEqual(["GET", "GET", "GET"]);
  });

  it("retries a create with one generated Idempotency-Key, so it happens once", async () => {
    proxy.inject(unavailable, "drop");
    const platform = client();
    const agent = await platform.agents.create({ name: "Once", model: "builtin/echo" });
    expect(proxy.seen).toHaveLength(3);
    expect(new Set(proxy.seen.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(proxy.seen[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const named = (await platform.agents.list({ name: "Once" })).data;
    expect(named.map((a) => a.id)).toEqual([agent.id]);
  });

  it("replays the first answer when the response of a create was lost after the server acted", async () => {
    const platform = client();
    const key = `lost-${Date.now()}`;
    const first = await platform.agents.create({ name: "Lost", model: "builtin/echo" }, { idempotencyKey: key });
    // The same key again, as a retry after a lost response would send it.
    const again = await platform.agents.create({ name: "Lost", model: "builtin/echo" }, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
  });

  it("gives up after maxRetries with the last error's class", async () => {
    proxy.inject(unavailable, unavailable);
    await expect(client({ maxRetries: 1 }).agents.list()).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(proxy.seen).toHaveLength(2);
    proxy.inject({ status: 429, headers: { "retry-after": "0" } });
    await expect(client().agents.list(undefined, { maxRetries: 0 })).rejects.toBeInstanceOf(RateLimitError);
  });

  it("times out a hung attempt, retries it, and raises TimeoutError (distinct from ConnectionError)", async () => {
    proxy.inject("hang", "hang");
    const started = Date.now();
    const error = await client({ timeout: 200, maxRetries: 1 })
      .agents.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(proxy.seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5_000);
    proxy.inject("hang");
    const page = await client({ maxRetries: 0 }).agents.list(undefined, { timeout: 200, maxRetries: 1 });
    expect(page.data).toBeInstanceOf(Array);
  });

  it("aborts with the caller's signal, without retrying", async () => {
    proxy.inject("hang");
    const controller = new AbortController();
    const pending = client().agents.list(undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 100);
    await expect(pending).rejects.toThrow("stop");
    expect(proxy.seen).toHaveLength(1);
  });

  it("reads Retry-After as seconds or an HTTP date, and backs off exponentially with jitter otherwise", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(backoffDelay(0, 100, "120")).toBe(60_000);
    for (let attempt = 0; attempt < 4; attempt++) {
      const delay = backoffDelay(attempt, 100);
      expect(delay).toBeGreaterThanOrEqual(50 * 2 ** attempt);
      expect(delay).toBeLessThanOrEqual(100 * 2 ** attempt);
    }
  });
});
