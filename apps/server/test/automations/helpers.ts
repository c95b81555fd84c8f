import { expect } from "vitest";
import { SCHEDULE_JOB } from "../../src/automations/job-types.js";
import { enqueueJob } from "../../src/jobs/index.js";
import { waitUntil } from "../sessions/loop-helpers.js";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";

export { createAgent, readLog, updateAgent } from "../sessions/helpers.js";
export { waitUntil } from "../sessions/loop-helpers.js";
export { expectError, expectInvalid } from "../support/expect-error.js";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests
type Body = any;

/** A schedule that fires once a year: nothing fires by itself while a test runs. */
export const YEARLY = { type: "schedule", cron: "0 0 1 1 *", timezone: "UTC" } as const;

/** Creates an automation through the API; `extra` adds or overrides fields. */
export async function createAutomation(
  t: TestApp,
  tenant: Tenant,
  agentId: string,
  extra: Record<string, unknown> = {},
): Promise<Body> {
  const res = await t.http
    .post(`${tenant.base}/automations`)
    .set(tenant.auth)
    .send({ name: "Nightly report", agentId, prompt: "Write the report.", trigger: YEARLY, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function listRuns(t: TestApp, tenant: Tenant, automationId: string): Promise<Body[]> {
  const res = await t.http.get(`${tenant.base}/automations/${automationId}/runs?limit=100`).set(tenant.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Waits until the automation has `count` runs (or more); returns them, newest first. */
export function waitForRuns(t: TestApp, tenant: Tenant, automationId: string, count: number, timeoutMs = 30_000) {
  return waitUntil(
    `${count} run(s) of ${automationId}`,
    async () => {
      const runs = await listRuns(t, tenant, automationId);
      return runs.length >= count ? runs : undefined;
    },
    timeoutMs,
  );
}

/**
 * Makes the automation's schedule due `inMs` from now through the scheduler's own path: its armed schedule time moves
 * there and its job is requested for then (as creating it would), so the worker's runner fires it.
 */
export async function armScheduleAt(t: TestApp, automationId: string, inMs = 0): Promise<Date> {
  const pool = t.platform.ctx.db.pool;
  const { rows } = await pool.query<{ nextFireAt: Date }>(
    `UPDATE automations SET "nextFireAt" = now() + make_interval(secs => $2::float8 / 1000) - interval '1 millisecond'
     WHERE "id" = $1 RETURNING "nextFireAt"`,
    [automationId, inMs],
  );
  const at = rows[0]!.nextFireAt;
  await enqueueJob(pool, SCHEDULE_JOB, { key: automationId, runAt: at });
  return at;
}

export async function runNow(t: TestApp, tenant: Tenant, automationId: string): Promise<string> {
  const res = await t.http.post(`${tenant.base}/automations/${automationId}/run`).set(tenant.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body).toEqual({ accepted: true, runId: expect.stringMatching(/^autrun_/) });
  return res.body.runId;
}
