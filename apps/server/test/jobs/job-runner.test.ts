import { setTimeout as sleep } from "node:timers/promises";
import { connectDatabase, type DatabaseHandle } from "@agent-platform/db";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AnyJobKind,
  askRunnersToSweep,
  type DeadJob,
  enqueueJob,
  enqueueJobs,
  exponentialBackoff,
  JOBS_CHANNEL,
  type JobKind,
  JobLeaseLost,
  JobRunner,
  jobType,
  type RunningJob,
} from "../../src/jobs/index.js";
import { PgListener } from "../../src/lib/pg-listener.js";
import { inTransaction } from "../../src/lib/transaction.js";
import { waitUntil } from "../sessions/loop-helpers.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

// The job core against a real PostgreSQL: each test registers kinds of its own and runs one or two runners (two
// runners stand for two worker processes: they share nothing but the database).
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
let database: TestDatabase;
let db: DatabaseHandle;
const running: { runner: JobRunner; listener: PgListener }[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = connectDatabase(database.url);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map(stopRunner));
  await db.pool.query("DELETE FROM jobs");
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

/** A kind as the tests enqueue it: any object payload (each kind parses its own at claim). */
const testJob = (name: string) => jobType(name, z.record(z.string(), z.unknown()));

async function startRunner(kinds: AnyJobKind[], drainMs = 0) {
  const listener = new PgListener({ connectionString: database.url }, logger);
  await listener.start();
  const runner = new JobRunner({ pool: db.pool, listener, logger, kinds, drainMs });
  runner.start();
  const handle = { runner, listener };
  running.push(handle);
  return handle;
}

/**
 * Resolves once the runner's start-up sweep is over: a job enqueued before then may be claimed by that sweep instead of
 * by its notification (seen on a loaded machine).
 */
async function startUpSweepDone(runner: JobRunner) {
  const internal = runner as unknown as { pumping?: Promise<void> };
  await waitUntil("the start-up sweep", async () => (internal.pumping === undefined ? true : undefined));
}

async function stopRunner(handle: { runner: JobRunner; listener: PgListener }) {
  await handle.runner.stop();
  await handle.listener.close();
}

function kind<P = Record<string, unknown>>(
  name: string,
  run: (job: RunningJob<P>) => Promise<undefined | { runAgainAt: Date }>,
  options: Partial<Omit<JobKind<P>, "kind" | "run">> = {},
): JobKind<never> {
  return {
    kind: name,
    payload: z.object({}).passthrough() as unknown as z.ZodType<P>,
    concurrency: 4,
    leaseMs: 5_000,
    retry: { maxAttempts: 3, backoffMs: () => 50 },
    run,
    ...options,
  } as unknown as JobKind<never>;
}

const rows = async (name: string) =>
  (await db.pool.query('SELECT * FROM jobs WHERE "kind" = $1 ORDER BY "key"', [name])).rows;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("the job runner", () => {
  it("runs a job enqueued by a commit, then deletes its row", async () => {
    const seen: unknown[] = [];
    await startRunner([
      kind("test.echo", async (job) => {
        seen.push(job.payload);
        return undefined;
      }),
    ]);
    await enqueueJob(db.pool, testJob("test.echo"), { key: "a", payload: { n: 1 } });
    await waitUntil("the run", async () => (seen.length === 1 ? true : undefined));
    expect(seen).toEqual([{ n: 1 }]);
    await waitUntil("the row deleted", async () => ((await rows("test.echo")).length === 0 ? true : undefined));
  });

  it("wakes the runners once the enqueuing transaction commits, and not for one rolled back", async () => {
    const notices: string[] = [];
    const listener = new PgListener({ connectionString: database.url }, logger);
    await listener.start();
    const unsubscribe = listener.subscribe(JOBS_CHANNEL, { onNotification: (payload) => notices.push(payload) });
    try {
      await expect(
        inTransaction(db.pool, async (client) => {
          await enqueueJob(client, testJob("test.notice"), { key: "rolled-back" });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      await inTransaction(db.pool, async (client) => {
        await enqueueJob(client, testJob("test.notice"), { key: "committed" });
        await sleep(200);
        // Sent after the commit, never from inside the transaction.
        expect(notices).toEqual([]);
      });
      await waitUntil("the notice", async () => (notices.length > 0 ? true : undefined));
      await sleep(200);
      expect(notices).toEqual([expect.stringMatching(/^test\.notice\|\d+\|committed$/)]);
    } finally {
      unsubscribe();
      await listener.close();
    }
  });

  it("runs a job whose notice was never sent (its writer died after the commit) when a process asks for a sweep", async () => {
    const ran: string[] = [];
    await startRunner([
      kind("test.unannounced", async (job) => {
        ran.push(job.key);
        return undefined;
      }),
    ]);
    await sleep(300);
    await db.pool.query(`INSERT INTO jobs ("kind", "key") VALUES ('test.unannounced', 'silent')`);
    await sleep(500);
    expect(ran).toEqual([]);
    await askRunnersToSweep(db.pool);
    await waitUntil("the swept run", async () => (ran.length === 1 ? true : undefined), 5_000);
    expect(ran).toEqual(["silent"]);
  });

  it("gives the first round of a notified run what the kind's preload read with the claim, and later rounds nothing", async () => {
    const seen: unknown[] = [];
    const asked = deferred();
    const handle = await startRunner([
      kind(
        "test.preload",
        async (job) => {
          seen.push(job.preloaded);
          if (seen.length === 1) {
            // Asked again during the run: the next round reads for itself.
            await enqueueJob(db.pool, testJob("test.preload"), { key: job.key, payload: { n: 2 } });
            asked.resolve();
          }
          return undefined;
        },
        {
          preload: (key: string, param: (value: unknown) => string) =>
            `SELECT json_build_object('key', ${param(key)}::text, 'payload', (SELECT "payload" FROM jobs
               WHERE "kind" = 'test.preload' AND "key" = ${param(key)}))`,
        },
      ),
    ]);
    await startUpSweepDone(handle.runner);
    await enqueueJob(db.pool, testJob("test.preload"), { key: "p1", payload: { n: 1 } });
    await asked.promise;
    await waitUntil("both rounds", async () => (seen.length === 2 ? true : undefined));
    expect(seen).toEqual([{ key: "p1", payload: { n: 1 } }, undefined]);
    await waitUntil("the row deleted", async () => ((await rows("test.preload")).length === 0 ? true : undefined));
  });

  it("never runs two jobs of one key at once, across runners, and runs again when requested during a run", async () => {
    const active = new Map<string, number>();
    let maxPerKey = 0;
    let maxOverall = 0;
    const runs = new Map<string, number>();
    const work = kind("test.serial", async (job) => {
      const now = (active.get(job.key) ?? 0) + 1;
      active.set(job.key, now);
      maxPerKey = Math.max(maxPerKey, now);
      maxOverall = Math.max(
        maxOverall,
        [...active.values()].reduce((a, b) => a + b, 0),
      );
      await new Promise((r) => setTimeout(r, 20));
      active.set(job.key, now - 1);
      runs.set(job.key, (runs.get(job.key) ?? 0) + 1);
      return undefined;
    });
    await startRunner([work]);
    await startRunner([work]);
    const keys = ["k1", "k2", "k3", "k4", "k5"];
    for (let round = 0; round < 10; round++) {
      await Promise.all(keys.map((key) => enqueueJob(db.pool, testJob("test.serial"), { key })));
    }
    await waitUntil("every request served", async () => ((await rows("test.serial")).length === 0 ? true : undefined));
    expect(maxPerKey).toBe(1);
    expect(maxOverall).toBeGreaterThan(1);
    // Requests that arrived while their key was running made it run again: more than one run per key.
    for (const key of keys) expect(runs.get(key)).toBeGreaterThan(1);
  });

  it("serves a backlog oldest first: work that keeps arriving by notification does not overtake it", async () => {
    const order: string[] = [];
    const gate = deferred();
    await startRunner([
      kind(
        "test.fair",
        async (job) => {
          order.push(job.key);
          if (job.key === "p1") {
            await gate.promise;
            // The next of a chain arrives just after this run ends, while the backlog's first job runs.
            setTimeout(() => void enqueueJob(db.pool, testJob("test.fair"), { key: "p2" }), 5);
          }
          if (job.key === "b") await new Promise((r) => setTimeout(r, 100));
          return undefined;
        },
        { concurrency: 1 },
      ),
    ]);
    await enqueueJob(db.pool, testJob("test.fair"), { key: "p1" });
    await waitUntil("p1 to run", async () => (order.includes("p1") ? true : undefined));
    for (const key of ["b", "c"]) await enqueueJob(db.pool, testJob("test.fair"), { key });
    await new Promise((r) => setTimeout(r, 50));
    gate.resolve();
    await waitUntil("every job", async () => (order.length === 4 ? true : undefined));
    expect(order).toEqual(["p1", "b", "c", "p2"]);
  });

  it("does not claim a job scheduled in the future before its time", async () => {
    const startedAt: number[] = [];
    await startRunner([
      kind("test.later", async () => {
        startedAt.push(Date.now());
        return undefined;
      }),
    ]);
    const runAt = new Date(Date.now() + 1_500);
    await enqueueJob(db.pool, testJob("test.later"), { key: "x", runAt });
    await waitUntil("the scheduled run", async () => (startedAt.length === 1 ? true : undefined), 20_000);
    expect(startedAt[0]!).toBeGreaterThanOrEqual(runAt.getTime() - 5);
  });

  it("does not poll an empty queue: after its first sweep an idle runner makes no query until work arrives", async () => {
    let queries = 0;
    const counted = new Proxy(db.pool, {
      get(target, property, receiver) {
        if (property !== "query") return Reflect.get(target, property, receiver);
        return (...args: Parameters<typeof target.query>) => {
          queries++;
          return (target.query as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const ran: string[] = [];
    const listener = new PgListener({ connectionString: database.url }, logger);
    await listener.start();
    const runner = new JobRunner({
      pool: counted,
      listener,
      logger,
      kinds: [
        kind("test.idle", async (job) => {
          ran.push(job.key);
          return undefined;
        }),
      ],
      drainMs: 0,
    });
    runner.start();
    running.push({ runner, listener });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterFirstSweep = queries;
    expect(afterFirstSweep).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(queries).toBe(afterFirstSweep);
    await enqueueJob(db.pool, testJob("test.idle"), { key: "woken" });
    await waitUntil("the notified run", async () => (ran.length === 1 ? true : undefined), 10_000);
    expect(ran).toEqual(["woken"]);
  });

  it("keeps a schedule: a run that asks to run again later is due then, with its attempts reset", async () => {
    const runsAt: number[] = [];
    await startRunner([
      kind("test.tick", async () => {
        runsAt.push(Date.now());
        return runsAt.length < 3 ? { runAgainAt: new Date(Date.now() + 300) } : undefined;
      }),
    ]);
    await enqueueJob(db.pool, testJob("test.tick"), { key: "clock" });
    await waitUntil("three ticks", async () => (runsAt.length === 3 ? true : undefined));
    expect(runsAt[1]! - runsAt[0]!).toBeGreaterThanOrEqual(295);
    expect(runsAt[2]! - runsAt[1]!).toBeGreaterThanOrEqual(295);
    await waitUntil("the row deleted", async () => ((await rows("test.tick")).length === 0 ? true : undefined));
  });

  it("retries a failing job with backoff, then gives up: the kind records it and the row goes", async () => {
    const attempts: { attempts: number; at: number }[] = [];
    const dead: DeadJob<unknown>[] = [];
    await startRunner([
      kind(
        "test.flaky",
        async (job) => {
          attempts.push({ attempts: job.attempts, at: Date.now() });
          throw new Error(`boom ${job.attempts}`);
        },
        {
          retry: { maxAttempts: 3, backoffMs: exponentialBackoff({ baseMs: 100, maxMs: 1_000 }) },
          giveUp: async (job) => {
            dead.push(job);
          },
        },
      ),
    ]);
    await enqueueJob(db.pool, testJob("test.flaky"), { key: "f" });
    await waitUntil("the give-up", async () => (dead.length === 1 ? true : undefined));
    expect(attempts.map((a) => a.attempts)).toEqual([1, 2, 3]);
    // Backoff: 100 ms after the first failure, 200 ms after the second.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(95);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(195);
    expect(dead[0]).toMatchObject({ key: "f", lastError: "boom 3", failures: 3 });
    await waitUntil("the row deleted", async () => ((await rows("test.flaky")).length === 0 ? true : undefined));
  });

  it("gives up at once on a payload that does not match the kind's schema", async () => {
    const dead: DeadJob<unknown>[] = [];
    let ran = false;
    await startRunner([
      kind(
        "test.typed",
        async () => {
          ran = true;
          return undefined;
        },
        {
          payload: z.object({ n: z.number() }) as unknown as z.ZodType<Record<string, unknown>>,
          giveUp: async (job) => {
            dead.push(job);
          },
        },
      ),
    ]);
    await enqueueJob(db.pool, testJob("test.typed"), { key: "bad", payload: { n: "not a number" } });
    await waitUntil("the give-up", async () => (dead.length === 1 ? true : undefined));
    expect(ran).toBe(false);
    expect(dead[0]!.lastError).toContain("payload does not match");
  });

  it("keeps the leases of long runs, renewing those due together in one statement", async () => {
    const release = deferred();
    const started: string[] = [];
    await startRunner([
      kind(
        "test.long",
        async (job) => {
          started.push(job.key);
          if (job.key !== "short") await release.promise;
          return undefined;
        },
        { leaseMs: 1_200 },
      ),
    ]);
    await enqueueJobs(
      db.pool,
      testJob("test.long"),
      ["a", "b", "c", "short"].map((key) => ({ key, payload: {} })),
    );
    await waitUntil("every run started", async () => (started.length === 4 ? true : undefined));
    const claimed = await rows("test.long");
    expect(claimed.map((r) => r.key)).toEqual(["a", "b", "c"]);
    // A third of the lease later, the three leases are renewed by one statement: the same "dueAt" (its now()), later
    // than the claims'.
    await waitUntil("the renewal", async () => {
      const now = await rows("test.long");
      return now.every((r, i) => r.dueAt.getTime() > claimed[i]!.dueAt.getTime()) ? now : undefined;
    });
    const renewed = await rows("test.long");
    expect(new Set(renewed.map((r) => r.dueAt.getTime())).size).toBe(1);
    expect(renewed.map((r) => r.leaseOwner)).toEqual(claimed.map((r) => r.leaseOwner));
    // Past the first lease's end the runs still hold theirs: none was claimed again.
    await new Promise((r) => setTimeout(r, 1_400));
    expect(started).toHaveLength(4);
    release.resolve();
    await waitUntil("the runs' end", async () => ((await rows("test.long")).length === 0 ? true : undefined));
    expect(started).toHaveLength(4);
  });

  it("resumes a job whose worker died once its lease expires (the attempt counts)", async () => {
    await db.pool.query(
      `INSERT INTO jobs ("kind", "key", "leaseOwner", "dueAt", "attempts") VALUES ('test.orphan', 'o', 'dead-worker', now() - interval '1 second', 1)`,
    );
    const seen: number[] = [];
    await startRunner([
      kind("test.orphan", async (job) => {
        seen.push(job.attempts);
        return undefined;
      }),
    ]);
    await waitUntil("the resumed run", async () => (seen.length === 1 ? true : undefined));
    expect(seen).toEqual([2]);
  });

  it("refuses a fenced write once the lease is lost, and aborts the run", async () => {
    const started = deferred();
    const release = deferred();
    let fencedError: unknown;
    let aborted = false;
    const { runner } = await startRunner([
      kind(
        "test.fenced",
        async (job) => {
          started.resolve();
          await release.promise;
          aborted = job.signal.aborted;
          try {
            await job.fenced((client) => client.query("INSERT INTO workspaces (id, name) VALUES ('ws_fenced', 'x')"));
          } catch (error) {
            fencedError = error;
          }
          return undefined;
        },
        { leaseMs: 1_000 },
      ),
    ]);
    await enqueueJob(db.pool, testJob("test.fenced"), { key: "l" });
    await started.promise;
    // Another worker took the job over (as after this one stalled past its lease).
    await db.pool.query(`UPDATE jobs SET "leaseOwner" = 'another-worker' WHERE "kind" = 'test.fenced'`);
    await waitUntil("the lease renewal noticing", async () => {
      const renewed = await db.pool.query(`SELECT 1 FROM jobs WHERE "leaseOwner" = 'another-worker'`);
      return renewed.rowCount === 1 ? true : undefined;
    });
    // At least one renewal period: a third of the lease, looked for every quarter second.
    await new Promise((r) => setTimeout(r, 900));
    release.resolve();
    await waitUntil("the run's end", async () => (fencedError ? true : undefined));
    expect(aborted).toBe(true);
    expect(fencedError).toBeInstanceOf(JobLeaseLost);
    const written = await db.pool.query(`SELECT 1 FROM workspaces WHERE id = 'ws_fenced'`);
    expect(written.rowCount).toBe(0);
    // The new owner's row is left alone.
    expect((await rows("test.fenced"))[0]).toMatchObject({ leaseOwner: "another-worker" });
    await runner.stop();
  });

  it("drains on stop: a run in progress finishes before stop resolves, and nothing new is claimed", async () => {
    const started = deferred();
    let finished = false;
    let later = 0;
    const handle = await startRunner(
      [
        kind("test.drain", async (job) => {
          if (job.key === "later") {
            later++;
            return undefined;
          }
          started.resolve();
          await new Promise((r) => setTimeout(r, 300));
          finished = !job.signal.aborted;
          return undefined;
        }),
      ],
      10_000,
    );
    await enqueueJob(db.pool, testJob("test.drain"), { key: "now" });
    await started.promise;
    running.splice(running.indexOf(handle), 1);
    const stopping = stopRunner(handle);
    await enqueueJob(db.pool, testJob("test.drain"), { key: "later" });
    await stopping;
    expect(finished).toBe(true);
    expect(later).toBe(0);
    expect((await rows("test.drain")).map((r) => r.key)).toEqual(["later"]);
  });

  it("hands a run back at once when the drain time is over: released, its attempt not counted", async () => {
    const started = deferred();
    let abortedWith: unknown;
    const handle = await startRunner(
      [
        kind("test.handback", async (job) => {
          started.resolve();
          await new Promise<void>((resolve) => job.signal.addEventListener("abort", () => resolve()));
          abortedWith = job.signal.reason;
          throw job.signal.reason;
        }),
      ],
      0,
    );
    await enqueueJob(db.pool, testJob("test.handback"), { key: "h" });
    await started.promise;
    running.splice(running.indexOf(handle), 1);
    await stopRunner(handle);
    expect((abortedWith as Error).name).toBe("WorkerStopping");
    expect(await rows("test.handback")).toEqual([expect.objectContaining({ leaseOwner: null, attempts: 0 })]);
  });

  it("runs two kinds side by side: a kind whose slots are busy does not starve another", async () => {
    const quickDone: string[] = [];
    const slowStarted: string[] = [];
    const allQuickDone = deferred();
    let slowStartedWhenQuickDone = -1;
    await startRunner([
      kind(
        "test.slow",
        async (job) => {
          slowStarted.push(job.key);
          // Holds the kind's only slot until every job of the other kind has run.
          await allQuickDone.promise;
          return undefined;
        },
        { concurrency: 1 },
      ),
      kind(
        "test.quick",
        async (job) => {
          quickDone.push(job.key);
          if (quickDone.length === 5) {
            slowStartedWhenQuickDone = slowStarted.length;
            allQuickDone.resolve();
          }
          return undefined;
        },
        { concurrency: 1 },
      ),
    ]);
    await enqueueJobs(
      db.pool,
      testJob("test.slow"),
      ["s1", "s2", "s3"].map((key) => ({ key })),
    );
    await waitUntil("the first slow job", async () => (slowStarted.length === 1 ? true : undefined));
    await enqueueJobs(
      db.pool,
      testJob("test.quick"),
      ["q1", "q2", "q3", "q4", "q5"].map((key) => ({ key })),
    );
    await waitUntil("every quick job", async () => (quickDone.length === 5 ? true : undefined));
    // All of them ran while the first slow job still held its kind's only slot.
    expect(slowStartedWhenQuickDone).toBe(1);
    await waitUntil("every slow job", async () => (slowStarted.length === 3 ? true : undefined));
  });
});

describe("back-pressure", () => {
  it("claims nothing while the load gauge names a resource, leaves the work queued, and claims it all once it eases", async () => {
    let reason: string | null = "event-loop delay 500 ms > 200 ms";
    let memory: string | null = null;
    let relieve = () => {};
    const pressure = {
      over: () => reason,
      memoryOver: () => memory,
      onRelief: (callback: () => void) => {
        relieve = callback;
      },
    };
    const ran: string[] = [];
    const listener = new PgListener({ connectionString: database.url }, logger);
    await listener.start();
    const runner = new JobRunner({
      pool: db.pool,
      listener,
      logger,
      kinds: [
        kind("test.pressure", async (job) => {
          ran.push(job.key);
          return undefined;
        }),
      ],
      drainMs: 0,
      pressure,
    });
    runner.start();
    running.push({ runner, listener });
    // Subscribed after the runner: each notification has reached the runner before it reaches this test.
    let notified = 0;
    const unsubscribe = listener.subscribe("jobs", { onNotification: () => void notified++ });
    try {
      await enqueueJobs(
        db.pool,
        testJob("test.pressure"),
        ["a", "b", "c"].map((key) => ({ key, payload: {} })),
      );
      await waitUntil("the notifications", async () => (notified >= 3 ? true : undefined));
      // Work this process's own API hands it still gets a slot under a busy event loop, not under a full heap.
      const slot = runner.reserve("test.pressure");
      expect(slot).toBeDefined();
      slot!.release();
      memory = "heap 91 % of its limit > 85 %";
      reason = memory;
      expect(runner.reserve("test.pressure")).toBeUndefined();
      const queued = await rows("test.pressure");
      expect(queued.map((r) => r.leaseOwner)).toEqual([null, null, null]);
      expect(ran).toEqual([]);
      reason = null;
      memory = null;
      relieve();
      await waitUntil("every queued job", async () => (ran.length === 3 ? true : undefined));
      expect(ran.sort()).toEqual(["a", "b", "c"]);
    } finally {
      unsubscribe();
    }
  });
});
