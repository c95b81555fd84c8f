import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLoadLimits } from "../../src/lib/load-gauge.js";
import { providerIdleSocketsPerOrigin, providerSocketsPerOrigin } from "../../src/models/provider-fetch.js";
import { DEFAULT_WORKER_CONCURRENCY, readTurnSettings } from "../../src/runtime/turns/settings.js";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// More model calls at once than the provider agent's old cap of 256 sockets per origin: the fake holds every call
// until it has seen them all in flight together, so the turns end only if nothing caps the calls below that.
const SESSIONS = 300;
const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let allInFlight: () => void;
const together = new Promise<void>((resolve) => {
  allInFlight = resolve;
});
let peak = 0;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.respondWith(() => {
    const pending = fake.requests.filter((r) => r.path === "/v1/chat/completions" && r.outcome === "pending").length;
    peak = Math.max(peak, pending);
    if (pending >= SESSIONS) allInFlight();
    return { text: "answered together", after: together };
  });
  // The default configuration: no WORKER_CONCURRENCY, no pool or socket settings.
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
}, 60_000);
afterAll(async () => {
  allInFlight?.();
  await t?.close();
  await fake?.close();
});

describe("no hidden ceiling on model calls", () => {
  it("does not cap the defaults below their documented values", () => {
    expect(readTurnSettings({}).concurrency).toBe(DEFAULT_WORKER_CONCURRENCY);
    expect(DEFAULT_WORKER_CONCURRENCY).toBeGreaterThanOrEqual(1_000);
    expect(readTurnSettings({ WORKER_CONCURRENCY: "100000" }).concurrency).toBe(100_000);
    expect(providerSocketsPerOrigin).toBe(Number.POSITIVE_INFINITY);
    // Node's default keeps 256 idle: calls that ended together would open the rest again for the next ones.
    expect(providerIdleSocketsPerOrigin).toBe(Number.POSITIVE_INFINITY);
    expect(readLoadLimits({}, 20)).toEqual({ maxEventLoopDelayMs: 200, maxHeapPercent: 85, maxPoolWaiters: 20 });
  });

  it("says in /readyz whether the worker claims work", async () => {
    const ready = await t.http.get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.details.load).toMatch(/^claiming (work|no new work: )/);
  });

  it(`runs ${SESSIONS} model calls at once in one worker`, async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const sessions = [];
    for (let i = 0; i < SESSIONS; i += 50) {
      sessions.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, SESSIONS - i) }, (_, j) =>
            newSession(t, t.tenant, { agent: agent.id, events: [message(`hello ${i + j}`)] }),
          ),
        )),
      );
    }
    await together;
    expect(peak).toBeGreaterThanOrEqual(SESSIONS);
    // Turns waiting on their model hold no pooled connection, and nothing waits for one.
    const { pool } = t.platform.ctx.db;
    expect(pool.waitingCount).toBe(0);
    expect(pool.totalCount - pool.idleCount).toBeLessThan(pool.options.max ?? 20);
    for (const session of sessions) {
      const log = await waitForIdle(t, t.tenant, session.id);
      expect(log.at(-1).stopReason).toBe("end_turn");
    }
  }, 120_000);
});
