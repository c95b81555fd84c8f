import { expect } from "vitest";
import { newId } from "../../src/ids.js";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";

export { expectError, expectInvalid, type HttpResult } from "../support/expect-error.js";

export function message(text: string, idempotencyKey?: string) {
  return {
    type: "user.message",
    content: [{ type: "text", text }],
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
  };
}

/** Creates an agent through the API (model `builtin/echo`); `extra` adds or overrides create fields. */
export async function createAgent(
  t: TestApp,
  tenant: Tenant,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; version: number }> {
  const res = await t.http
    .post(`${tenant.base}/agents`)
    .set(tenant.auth)
    .send({ name: "Test agent", model: "builtin/echo", system: "Be brief.", ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, version: res.body.version };
}

/** Patches an agent through the API (publishes the next version when something changes). */
export async function updateAgent(
  t: TestApp,
  tenant: Tenant,
  agentId: string,
  version: number,
  patch: Record<string, unknown>,
): Promise<{ id: string; version: number }> {
  const res = await t.http
    .post(`${tenant.base}/agents/${agentId}`)
    .set(tenant.auth)
    .send({ version, ...patch });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.id, version: res.body.version };
}

export async function seedEnvironment(t: TestApp, tenant: Tenant, name: string, archived = false): Promise<string> {
  const row = await t.platform.ctx.db.prisma.environment.create({
    data: { id: newId("environment"), projectId: tenant.projectId, name, archivedAt: archived ? new Date() : null },
  });
  return row.id;
}

export async function seedVault(t: TestApp, tenant: Tenant, name: string): Promise<string> {
  const row = await t.platform.ctx.db.prisma.vault.create({
    data: {
      id: newId("vault"),
      workspaceId: tenant.workspaceId,
      name,
      sealed: t.platform.ctx.secrets.seal(JSON.stringify({ TOKEN: "secret" })),
      secretKeys: ["TOKEN"],
    },
  });
  return row.id;
}

export async function seedMemoryStore(t: TestApp, tenant: Tenant, name: string): Promise<string> {
  const row = await t.platform.ctx.db.prisma.memoryStore.create({
    data: { id: newId("memoryStore"), projectId: tenant.projectId, name },
  });
  return row.id;
}

export function postSession(t: TestApp, tenant: Tenant, body: Record<string, unknown>) {
  return t.http.post(`${tenant.base}/sessions`).set(tenant.auth).send(body);
}

/** Creates a session and returns its record (asserting 201). */
export async function newSession(t: TestApp, tenant: Tenant, body: Record<string, unknown>) {
  const res = await postSession(t, tenant, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  // biome-ignore lint/suspicious/noExplicitAny: the session record
  return res.body as any;
}

export function postEvents(t: TestApp, tenant: Tenant, sessionId: string, events: unknown[]) {
  return t.http.post(`${tenant.base}/sessions/${sessionId}/events`).set(tenant.auth).send({ events });
}

/** The whole log of a session, read through the API. */
export async function readLog(t: TestApp, tenant: Tenant, sessionId: string) {
  const res = await t.http.get(`${tenant.base}/sessions/${sessionId}/events?limit=1000`).set(tenant.auth);
  expect(res.status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: log entries
  return res.body.data as any[];
}

/** Sets what the loop would set when it pauses on tool uses (tests run without a worker). */
export async function setPendingActions(
  t: TestApp,
  sessionId: string,
  actions: { toolUseId: string; kind: "confirmation" | "custom_tool"; name: string }[],
): Promise<void> {
  await t.platform.ctx.db.pool.query(
    `UPDATE sessions SET "pendingActions" = $2::jsonb, "stopReason" = 'requires_action' WHERE id = $1`,
    [sessionId, JSON.stringify(actions)],
  );
}
