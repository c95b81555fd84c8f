import { expect } from "vitest";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";

export { waitUntil } from "../sessions/loop-helpers.js";
export { expectError, expectInvalid } from "../support/expect-error.js";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests
type Body = any;

export async function createWebhook(t: TestApp, tenant: Tenant, body: Record<string, unknown>): Promise<Body> {
  const res = await t.http.post("/v1/webhooks").set(tenant.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function deliveries(t: TestApp, tenant: Tenant, webhookId: string): Promise<Body[]> {
  const res = await t.http.get(`/v1/webhooks/${webhookId}/deliveries?limit=100`).set(tenant.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
