import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/ids.js";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  createAgent,
  expectError,
  expectInvalid,
  message,
  newSession,
  postSession,
  readLog,
  seedEnvironment,
  seedMemoryStore,
  seedVault,
  updateAgent,
} from "./helpers.js";

let t: TestApp;
let tenant: Tenant;
let agent: { id: string; version: number };

beforeAll(async () => {
  t = await startTestApp();
  tenant = t.tenant;
  agent = await createAgent(t, tenant);
});
afterAll(async () => {
  await t?.close();
});

describe("POST /sessions", () => {
  it("creates an idle session on the agent's current version with the account defaults", async () => {
    const res = await postSession(t, tenant, { agent: agent.id });
    expect(res.status).toBe(201);
    const s = res.body;
    expect(s).toEqual({
      id: expect.stringMatching(/^sess_[0-9a-z]{26}$/),
      projectId: tenant.projectId,
      agent: { id: agent.id, version: 1 },
      title: null,
      metadata: {},
      status: "idle",
      stopReason: null,
      pendingActions: [],
      environmentId: tenant.defaultEnvironmentId,
      vaultIds: [],
      resources: [],
      parentSessionId: null,
      forkedFrom: null,
      lastSeq: 0,
      usage: {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadInputTokens: 0,
        cacheWriteInputTokens: 0,
        reasoningTokens: 0,
        costUsd: 0,
      },
      outcome: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
      archivedAt: null,
    });
    const got = await t.http.get(`${tenant.base}/sessions/${s.id}`).set(tenant.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(s);
  });

  it("pins a version with { id, version } and resolves the current one from an id", async () => {
    const a = await createAgent(t, tenant, { name: "versioned" });
    const v2 = await t.http.post(`${tenant.base}/agents/${a.id}`).set(tenant.auth).send({ version: 1, system: "v2" });
    expect(v2.body.version).toBe(2);
    expect((await newSession(t, tenant, { agent: a.id })).agent).toEqual({ id: a.id, version: 2 });
    expect((await newSession(t, tenant, { agent: { id: a.id, version: 1 } })).agent).toEqual({ id: a.id, version: 1 });
  });

  it("stores the trimmed title and the metadata", async () => {
    const s = await newSession(t, tenant, {
      agent: agent.id,
      title: "  Support ticket 42  ",
      metadata: { ticket: "42" },
    });
    expect(s.title).toBe("Support ticket 42");
    expect(s.metadata).toEqual({ ticket: "42" });
    expect((await newSession(t, tenant, { agent: agent.id, title: null })).title).toBeNull();
  });

  it("appends initial events in the same call and records the work request", async () => {
    const s = await newSession(t, tenant, {
      agent: agent.id,
      events: [message("hello", "first"), message("second message")],
    });
    expect(s.lastSeq).toBe(2);
    const log = await readLog(t, tenant, s.id);
    expect(log).toEqual([
      {
        seq: 1,
        id: expect.stringMatching(/^evt_/),
        type: "user.message",
        createdAt: expect.any(String),
        content: [{ type: "text", text: "hello" }],
      },
      expect.objectContaining({ seq: 2, type: "user.message", content: [{ type: "text", text: "second message" }] }),
    ]);
    const runs = await t.platform.ctx.db.pool.query(`SELECT 1 FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`, [
      s.id,
    ]);
    expect(runs.rowCount).toBe(1);
  });

  it("creates no work request when there are no initial events", async () => {
    const s = await newSession(t, tenant, { agent: agent.id });
    const runs = await t.platform.ctx.db.pool.query(`SELECT 1 FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`, [
      s.id,
    ]);
    expect(runs.rowCount).toBe(0);
  });

  it("refuses initial answers to tool uses (nothing is pending yet) and creates nothing", async () => {
    const before = await t.platform.ctx.db.pool.query("SELECT count(*)::int AS n FROM sessions");
    const res = await postSession(t, tenant, {
      agent: agent.id,
      events: [{ type: "user.tool_confirmation", toolUseId: "evt_nothing", result: "allow" }],
    });
    expectError(res, 409, "session.invalid_event");
    expect(res.body.error.message).toContain("evt_nothing");
    const after = await t.platform.ctx.db.pool.query("SELECT count(*)::int AS n FROM sessions");
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it("answers 404 agent.not_found for a missing agent or another project's agent", async () => {
    expectError(await postSession(t, tenant, { agent: "agent_missing" }), 404, "agent.not_found");
    const other = await t.newTenant();
    const foreign = await createAgent(t, other);
    expectError(await postSession(t, tenant, { agent: foreign.id }), 404, "agent.not_found");
  });

  it("answers 404 agent.version_not_found for a missing version", async () => {
    const res = await postSession(t, tenant, { agent: { id: agent.id, version: 9 } });
    expectError(res, 404, "agent.version_not_found");
  });

  it("answers 409 agent.archived for an archived agent", async () => {
    const a = await createAgent(t, tenant, { name: "to archive" });
    const archived = await t.http.post(`${tenant.base}/agents/${a.id}/archive`).set(tenant.auth).send({});
    expect(archived.status).toBe(200);
    expectError(await postSession(t, tenant, { agent: a.id }), 409, "agent.archived");
    expectError(await postSession(t, tenant, { agent: { id: a.id, version: 1 } }), 409, "agent.archived");
  });

  it("follows the agent's head after sessions were created on it: a new version, then archiving, refused with no count", async () => {
    // Each process remembers the current version it last saw and checks it in the statement that inserts the session;
    // a head changed since (here by the API, or by another process) sends creation down the path that reads it.
    const a = await createAgent(t, tenant, { name: "moving head" });
    expect((await newSession(t, tenant, { agent: a.id })).agent).toEqual({ id: a.id, version: 1 });
    expect((await newSession(t, tenant, { agent: a.id })).agent).toEqual({ id: a.id, version: 1 });
    await updateAgent(t, tenant, a.id, 1, { system: "Second version." });
    expect((await newSession(t, tenant, { agent: a.id })).agent).toEqual({ id: a.id, version: 2 });
    await t.platform.ctx.db.pool.query(`UPDATE agents SET "archivedAt" = now() WHERE "id" = $1`, [a.id]);
    const before = await sessionCount(a.id);
    expectError(await postSession(t, tenant, { agent: a.id }), 409, "agent.archived");
    expectError(await postSession(t, tenant, { agent: { id: a.id, version: 1 } }), 409, "agent.archived");
    expect(await sessionCount(a.id)).toBe(before);
  });

  it("validates the body with field paths", async () => {
    expectInvalid(await postSession(t, tenant, {}), ["body.agent"]);
    expectInvalid(await postSession(t, tenant, { agent: agent.id, title: "   " }), ["body.title"]);
    expectInvalid(await postSession(t, tenant, { agent: agent.id, title: "x".repeat(201) }), ["body.title"]);
    expectInvalid(await postSession(t, tenant, { agent: agent.id, extra: true }), ["body"]);
    expectInvalid(await postSession(t, tenant, { agent: { id: agent.id, version: 0 } }), ["body.agent.version"]);
    expectInvalid(await postSession(t, tenant, { agent: agent.id, metadata: { k: 1 } }), ["body.metadata.k"]);
    expectInvalid(await postSession(t, tenant, { agent: agent.id, resources: [{ memoryStore: "x", mode: "write" }] }), [
      "body.resources.0.mode",
    ]);
    expectInvalid(await postSession(t, tenant, { agent: agent.id, vaultIds: Array(17).fill("v") }), ["body.vaultIds"]);
    expectInvalid(await postSession(t, tenant, { agent: agent.id, events: [{ type: "user.nope" }] }), [
      "body.events.0.type",
    ]);
  });

  it("refuses the same memory store mounted twice (by id and by name)", async () => {
    const store = await seedMemoryStore(t, tenant, "twice");
    const res = await postSession(t, tenant, {
      agent: agent.id,
      resources: [
        { memoryStore: store, mode: "read-only" },
        { memoryStore: "twice", mode: "read-write" },
      ],
    });
    expectInvalid(res, ["body.resources.1.memoryStore"]);
  });

  it("resolves vault and memory store names to ids and keeps the real store name", async () => {
    const vault = await seedVault(t, tenant, "crm-credentials");
    const store = await seedMemoryStore(t, tenant, "customer-notes");
    const s = await newSession(t, tenant, {
      agent: agent.id,
      vaultIds: ["crm-credentials", vault],
      resources: [{ memoryStore: "customer-notes", mode: "read-write" }],
    });
    expect(s.vaultIds).toEqual([vault]);
    expect(s.resources).toEqual([{ memoryStoreId: store, memoryStoreName: "customer-notes", mode: "read-write" }]);
  });

  it("answers 422 for explicit references that do not resolve", async () => {
    const archivedEnv = await seedEnvironment(t, tenant, "old", true);
    const other = await t.newTenant();
    const foreignEnv = await seedEnvironment(t, other, "theirs");
    const foreignStore = await seedMemoryStore(t, other, "their-store");
    const foreignVault = await seedVault(t, other, "their-vault");
    const cases: [Record<string, unknown>, string][] = [
      [{ environmentId: "env_missing" }, "session.environment_not_found"],
      [{ environmentId: archivedEnv }, "session.environment_not_found"],
      [{ environmentId: foreignEnv }, "session.environment_not_found"],
      [{ vaultIds: ["no-such-vault"] }, "session.vault_not_found"],
      [{ vaultIds: [foreignVault] }, "session.vault_not_found"],
      [{ resources: [{ memoryStore: "ms_missing", mode: "read-only" }] }, "session.memory_store_not_found"],
      [{ resources: [{ memoryStore: foreignStore, mode: "read-only" }] }, "session.memory_store_not_found"],
    ];
    for (const [body, code] of cases) {
      expectError(await postSession(t, tenant, { agent: agent.id, ...body }), 422, code);
    }
  });

  it("answers 422 when the agent's defaults point at something deleted since", async () => {
    const vault = await seedVault(t, tenant, "short-lived");
    const a = await createAgent(t, tenant, { name: "stale defaults", defaults: { vaultIds: [vault] } });
    await t.platform.ctx.db.prisma.vault.delete({ where: { id: vault } });
    const res = await postSession(t, tenant, { agent: a.id });
    expectError(res, 422, "session.vault_not_found");
    expect(res.body.error.message).toContain("defaults");
    // An explicit value does not read the default at all.
    expect((await newSession(t, tenant, { agent: a.id, vaultIds: [] })).vaultIds).toEqual([]);
  });
});

describe("budgets at creation", () => {
  async function addBudget(
    tenantOf: Tenant,
    fields: { scope: "workspace" | "agent"; agentId?: string; meter: string },
  ) {
    await t.platform.ctx.db.prisma.budget.create({
      data: {
        id: newId("budget"),
        workspaceId: tenantOf.workspaceId,
        scope: fields.scope,
        agentId: fields.agentId ?? null,
        meter: fields.meter,
        period: "total",
        limit: 2n,
        action: "block",
      },
    });
  }

  it("counts sessions and refuses the one past a blocking workspace budget with 403 and details", async () => {
    const own = await t.newTenant();
    const a = await createAgent(t, own);
    await addBudget(own, { scope: "workspace", meter: "sessions" });
    await newSession(t, own, { agent: a.id });
    await newSession(t, own, { agent: a.id });
    const res = await postSession(t, own, { agent: a.id, events: [message("hi")] });
    expectError(res, 403, "budget.exceeded");
    expect(res.body.error.details).toEqual({ scope: "workspace", meter: "sessions", limit: 2, used: 2 });
    const count = await t.platform.ctx.db.pool.query('SELECT count(*)::int AS n FROM sessions WHERE "projectId" = $1', [
      own.projectId,
    ]);
    expect(count.rows[0].n).toBe(2);
  });

  it("counts sessions created while no budget applied (one statement) against a budget added later", async () => {
    const own = await t.newTenant();
    const a = await createAgent(t, own);
    await newSession(t, own, { agent: a.id });
    await newSession(t, own, { agent: a.id });
    await addBudget(own, { scope: "agent", agentId: a.id, meter: "sessions" });
    const res = await postSession(t, own, { agent: a.id });
    expectError(res, 403, "budget.exceeded");
    expect(res.body.error.details).toEqual({ scope: "agent", meter: "sessions", limit: 2, used: 2 });
  });

  it("applies an agent budget to that agent only", async () => {
    const own = await t.newTenant();
    const limited = await createAgent(t, own, { name: "limited" });
    const free = await createAgent(t, own, { name: "free" });
    await addBudget(own, { scope: "agent", agentId: limited.id, meter: "sessions" });
    await newSession(t, own, { agent: limited.id });
    await newSession(t, own, { agent: limited.id });
    const res = await postSession(t, own, { agent: limited.id });
    expectError(res, 403, "budget.exceeded");
    expect(res.body.error.details).toEqual({ scope: "agent", meter: "sessions", limit: 2, used: 2 });
    await newSession(t, own, { agent: free.id });
  });

  it("refuses creation when another blocking meter is exhausted", async () => {
    const own = await t.newTenant();
    const a = await createAgent(t, own);
    await addBudget(own, { scope: "workspace", meter: "tokens" });
    await t.platform.ctx.db.pool.query(
      `INSERT INTO usage_counters ("workspaceId", "agentId", "month", "day", "tokens_total")
       VALUES ($1, '', '2026-01-01', '2026-01-01', 5)`,
      [own.workspaceId],
    );
    const res = await postSession(t, own, { agent: a.id });
    expectError(res, 403, "budget.exceeded");
    expect(res.body.error.details).toEqual({ scope: "workspace", meter: "tokens", limit: 2, used: 5 });
  });
});

async function sessionCount(agentId: string): Promise<number> {
  const { rows } = await t.platform.ctx.db.pool.query(`SELECT count(*)::int AS n FROM sessions WHERE "agentId" = $1`, [
    agentId,
  ]);
  return rows[0].n;
}
