import type { ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";
import { armScheduleAt, createAgent, createAutomation, listRuns, runNow, waitForRuns, waitUntil } from "./helpers.js";

// The API runs in this process without a worker; workers are real child processes on the same database.
let t: TestApp;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestApp({ role: "api" });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map(stopWorkerProcess));
});
afterAll(async () => {
  await t?.close();
});

async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess(t, { WORKER_LEASE_MS: "2000" });
  workers.push(child);
  return child;
}

async function sessionsOf(automationId: string): Promise<number> {
  const { rows } = await t.platform.ctx.db.pool.query<{ count: number }>(
    `SELECT count(*)::int AS "count" FROM sessions WHERE "metadata"->>'automationId' = $1`,
    [automationId],
  );
  return rows[0]!.count;
}

// Worker processes take a few seconds each to start on a loaded machine: generous time limits.
describe("several worker processes on one database", { timeout: 180_000 }, () => {
  it("fire each due schedule exactly once", async () => {
    const agent = await createAgent(t, t.tenant);
    const automations = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createAutomation(t, t.tenant, agent.id, { name: `auto ${i}` })),
    );
    await Promise.all([startWorker(), startWorker()]);

    const rounds = 3;
    const armed = new Map<string, string[]>(automations.map((a) => [a.id, []]));
    for (let round = 1; round <= rounds; round++) {
      // Both workers are told (NOTIFY) and arm their timers for the same instant.
      for (const a of automations) armed.get(a.id)!.push((await armScheduleAt(t, a.id, 500)).toISOString());
      for (const a of automations) await waitForRuns(t, t.tenant, a.id, round, 60_000);
    }
    // Every schedule is handed back, armed for next year: nothing is left to fire.
    await waitUntil(
      "every schedule handed back",
      async () => {
        const { rows } = await t.platform.ctx.db.pool.query<{ free: number }>(
          `SELECT count(*)::int AS "free" FROM jobs
           WHERE "kind" = 'automation.schedule' AND "leaseOwner" IS NULL AND "dueAt" > now() + interval '1 day'`,
        );
        return rows[0]!.free === automations.length ? true : undefined;
      },
      60_000,
    );
    for (const a of automations) {
      const runs = await listRuns(t, t.tenant, a.id);
      expect(runs.map((r) => r.scheduledFor).sort()).toEqual(armed.get(a.id)!.sort());
      expect(runs.every((r) => r.status === "started")).toBe(true);
      expect(await sessionsOf(a.id)).toBe(rounds);
    }
  });

  it("run a manual run requested while no worker ran, once a worker starts", async () => {
    const agent = await createAgent(t, t.tenant);
    const automation = await createAutomation(t, t.tenant, agent.id, { trigger: { type: "manual" } });
    const runId = await runNow(t, t.tenant, automation.id);
    expect(await listRuns(t, t.tenant, automation.id)).toEqual([]);
    const { rowCount } = await t.platform.ctx.db.pool.query(
      `SELECT 1 FROM jobs WHERE "kind" = 'automation.run' AND "key" = $1`,
      [runId],
    );
    expect(rowCount).toBe(1);

    await startWorker();
    const [run] = await waitForRuns(t, t.tenant, automation.id, 1, 60_000);
    expect(run).toMatchObject({ id: runId, status: "started", triggerKind: "manual" });
    await waitUntil(
      "the session's turn to end",
      async () => {
        const [latest] = await listRuns(t, t.tenant, automation.id);
        // Idle before its first turn too: the turn has ended once a stop reason is set.
        return latest.sessionStatus === "idle" && latest.sessionStopReason !== null ? true : undefined;
      },
      60_000,
    );
  });
});
