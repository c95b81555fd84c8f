import { expect } from "vitest";
import { waitUntil } from "../sessions/loop-helpers.js";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";

export { createAgent, updateAgent } from "../sessions/helpers.js";
export { waitUntil } from "../sessions/loop-helpers.js";
export { expectError, expectInvalid } from "../support/expect-error.js";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests
type Body = any;

/** A dataset through the API with these cases (`input`, optional `expected`). */
export async function createDataset(
  t: TestApp,
  tenant: Tenant,
  cases: { input: string; expected?: string }[],
): Promise<string> {
  const res = await t.http
    .post(`${tenant.base}/datasets`)
    .set(tenant.auth)
    .send({ name: `ds-${Math.random()}`, cases });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

export function postExperiment(t: TestApp, tenant: Tenant, body: Record<string, unknown>) {
  return t.http.post(`${tenant.base}/experiments`).set(tenant.auth).send(body);
}

export async function createExperiment(t: TestApp, tenant: Tenant, body: Record<string, unknown>): Promise<Body> {
  const res = await postExperiment(t, tenant, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function getExperiment(t: TestApp, tenant: Tenant, id: string): Promise<Body> {
  const res = await t.http.get(`${tenant.base}/experiments/${id}`).set(tenant.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Waits for the experiment to leave pending/running (completed or failed); returns it. */
export async function waitForEnd(t: TestApp, tenant: Tenant, id: string, timeoutMs = 60_000): Promise<Body> {
  return waitUntil(
    `experiment ${id} to end`,
    async () => {
      const experiment = await getExperiment(t, tenant, id);
      return ["completed", "failed"].includes(experiment.status) ? experiment : undefined;
    },
    timeoutMs,
  );
}

/** Every result, in dataset order. */
export async function allResults(t: TestApp, tenant: Tenant, id: string): Promise<Body[]> {
  const out: Body[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: Body } = await t.http
      .get(`${tenant.base}/experiments/${id}/results`)
      .query({ limit: 100, ...(cursor ? { cursor } : {}) })
      .set(tenant.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor);
  return out;
}
