import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { budgetExceededError, checkBudgets, recordUsage, recordUsages } from "../../src/budgets/usage.js";
import { newId } from "../../src/ids.js";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectEachOnceNewestFirst, expectError, expectInvalid, walkPages } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** An agent row of the tenant's project (budgets only need it to exist in the workspace). */
async function newAgent(tenant: Tenant): Promise<string> {
  const id = newId("agent");
  await t.platform.ctx.db.prisma.agent.create({
    data: { id, projectId: tenant.projectId, name: "budgeted", currentVersion: 1 },
  });
  return id;
}

describe("budgets over HTTP", () => {
  it("creates, gets, lists and deletes budgets with their current consumption", async () => {
    const tenant = await t.newTenant();
    const agentId = await newAgent(tenant);
    const created = await t.http
      .post("/v1/budgets")
      .set(tenant.auth)
      .send({ scope: "workspace", meter: "tokens", limit: 1000, action: "block" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^budget_[0-9a-z]{26}$/),
      workspaceId: tenant.workspaceId,
      scope: "workspace",
      agentId: null,
      meter: "tokens",
      limit: 1000,
      period: "month",
      action: "block",
      used: 0,
      exceeded: false,
      resetsAt: expect.stringMatching(/^\d{4}-\d\d-01T00:00:00\.000Z$/),
      createdAt: expect.any(String),
    });
    const perAgent = await t.http
      .post("/v1/budgets")
      .set(tenant.auth)
      .send({ scope: "agent", agentId, meter: "sessions", limit: 2, period: "total", action: "notify" });
    expect(perAgent.status).toBe(201);
    expect(perAgent.body).toMatchObject({ scope: "agent", agentId, period: "total", resetsAt: null, used: 0 });

    const pool = t.platform.ctx.db.pool;
    await recordUsage(pool, { workspaceId: tenant.workspaceId, agentId, meter: "tokens", amount: 400 });
    await recordUsage(pool, { workspaceId: tenant.workspaceId, agentId, meter: "sessions", amount: 1 });
    await recordUsage(pool, { workspaceId: tenant.workspaceId, agentId, meter: "sessions", amount: 1 });

    const got = await t.http.get(`/v1/budgets/${created.body.id}`).set(tenant.auth);
    expect(got.body).toMatchObject({ used: 400, exceeded: false });
    const list = await t.http.get("/v1/budgets").set(tenant.auth);
    const usage = Object.fromEntries(
      list.body.data.map((b: { id: string; used: number; exceeded: boolean }) => [b.id, [b.used, b.exceeded]]),
    );
    expect(usage).toEqual({ [perAgent.body.id]: [2, true], [created.body.id]: [400, false] });
    const byAgent = await t.http.get(`/v1/budgets?agentId=${agentId}`).set(tenant.auth);
    expect(byAgent.body.data.map((b: { id: string }) => b.id)).toEqual([perAgent.body.id]);

    const deleted = await t.http.delete(`/v1/budgets/${perAgent.body.id}`).set(tenant.auth);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: perAgent.body.id, used: 2 });
    expectError(await t.http.get(`/v1/budgets/${perAgent.body.id}`).set(tenant.auth), 404, "budget.not_found");
    expectError(await t.http.delete(`/v1/budgets/${perAgent.body.id}`).set(tenant.auth), 404, "budget.not_found");
  });

  it("validates the body with field paths", async () => {
    expectInvalid(
      await t.http
        .post("/v1/budgets")
        .set(t.tenant.auth)
        .send({ scope: "agent", meter: "tokens", limit: 1, action: "block" }),
      ["body.agentId"],
    );
    expectInvalid(
      await t.http
        .post("/v1/budgets")
        .set(t.tenant.auth)
        .send({ scope: "workspace", agentId: "agent_abc", meter: "tokens", limit: 1, action: "block" }),
      ["body.agentId"],
    );
    expectInvalid(
      await t.http
        .post("/v1/budgets")
        .set(t.tenant.auth)
        .send({ scope: "team", meter: "dollars", limit: 0, period: "week", action: "warn", extra: 1 }),
      ["body.scope", "body.meter", "body.limit", "body.period", "body.action", "body"],
    );
    expectInvalid(
      await t.http
        .post("/v1/budgets")
        .set(t.tenant.auth)
        .send({ scope: "workspace", meter: "tokens", limit: 1.5, action: "block" }),
      ["body.limit"],
    );
  });

  it("refuses an agent outside the workspace with 422 budget.agent_not_found", async () => {
    const other = await t.newTenant();
    const foreignAgent = await newAgent(other);
    for (const agentId of [foreignAgent, "agent_00000000000000000000000000"]) {
      expectError(
        await t.http
          .post("/v1/budgets")
          .set(t.tenant.auth)
          .send({ scope: "agent", agentId, meter: "tokens", limit: 5, action: "block" }),
        422,
        "budget.agent_not_found",
      );
    }
  });

  it("answers 403 auth.forbidden to a member key on every budget route", async () => {
    const member = await t.newTenant("member");
    const body = { scope: "workspace", meter: "tokens", limit: 1, action: "block" };
    expectError(await t.http.post("/v1/budgets").set(member.auth).send(body), 403, "auth.forbidden");
    expectError(await t.http.get("/v1/budgets").set(member.auth), 403, "auth.forbidden");
    const budget = (await t.http.post("/v1/budgets").set(t.tenant.auth).send(body)).body;
    expectError(await t.http.get(`/v1/budgets/${budget.id}`).set(member.auth), 403, "auth.forbidden");
    expectError(await t.http.delete(`/v1/budgets/${budget.id}`).set(member.auth), 403, "auth.forbidden");
  });

  it("hides another workspace's budget behind 404 budget.not_found", async () => {
    const other = await t.newTenant();
    const theirs = (
      await t.http
        .post("/v1/budgets")
        .set(other.auth)
        .send({ scope: "workspace", meter: "sessions", limit: 3, action: "block" })
    ).body;
    expectError(await t.http.get(`/v1/budgets/${theirs.id}`).set(t.tenant.auth), 404, "budget.not_found");
    expectError(await t.http.delete(`/v1/budgets/${theirs.id}`).set(t.tenant.auth), 404, "budget.not_found");
  });

  it("walks every page exactly once and binds cursors to the agent filter", async () => {
    const tenant = await t.newTenant();
    const agentId = await newAgent(tenant);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.http
        .post("/v1/budgets")
        .set(tenant.auth)
        .send({ scope: "workspace", meter: "model_calls", limit: 10 + i, action: "notify" });
      ids.push(res.body.id);
    }
    const { items, cursors } = await walkPages(t.http, tenant.auth, "/v1/budgets", 2);
    expectEachOnceNewestFirst(
      items.map((b) => b.id),
      ids,
    );
    expectInvalid(await t.http.get(`/v1/budgets?agentId=${agentId}&cursor=${cursors[0]}`).set(tenant.auth), [
      "query.cursor",
    ]);
  });
});

describe("recordUsage and checkBudgets", () => {
  async function budget(tenant: Tenant, body: Record<string, unknown>) {
    const res = await t.http.post("/v1/budgets").set(tenant.auth).send(body);
    expect(res.status).toBe(201);
    return res.body;
  }

  it("counts per workspace and per agent in the total and the month's and day's counts of one row", async () => {
    const tenant = await t.newTenant();
    const pool = t.platform.ctx.db.pool;
    const now = new Date("2026-03-31T23:59:59.000Z");
    await recordUsage(pool, { workspaceId: tenant.workspaceId, agentId: "agent_x", meter: "tokens", amount: 7, now });
    await recordUsage(pool, { workspaceId: tenant.workspaceId, agentId: null, meter: "tokens", amount: 3, now });
    await recordUsage(pool, { workspaceId: tenant.workspaceId, agentId: "agent_x", meter: "tokens", amount: 0, now });
    const { rows } = await pool.query(
      `SELECT "agentId", "month"::text, "day"::text, sum("tokens_total")::int AS total,
         sum("tokens_month")::int AS month_count, sum("tokens_day")::int AS day_count
       FROM usage_counters WHERE "workspaceId" = $1 GROUP BY 1, 2, 3 ORDER BY 1`,
      [tenant.workspaceId],
    );
    expect(rows).toEqual([
      { agentId: "", month: "2026-03-01", day: "2026-03-31", total: 10, month_count: 10, day_count: 10 },
      { agentId: "agent_x", month: "2026-03-01", day: "2026-03-31", total: 7, month_count: 7, day_count: 7 },
    ]);
    await expect(recordUsage(pool, { workspaceId: tenant.workspaceId, meter: "tokens", amount: 1.5 })).rejects.toThrow(
      /must be an integer/,
    );
  });

  it("keeps a call's meters in one row per owner, and settles them below the estimate", async () => {
    const tenant = await t.newTenant();
    const pool = t.platform.ctx.db.pool;
    const agentId = await newAgent(tenant);
    const ws = tenant.workspaceId;
    const call = [
      { meter: "tokens", amount: 100 },
      { meter: "model_calls", amount: 1 },
      { meter: "cost_usd", amount: 2_500 },
    ] as const;
    await recordUsages(pool, { workspaceId: ws, agentId, usages: call });
    const rows = await pool.query(`SELECT count(*)::int AS n FROM usage_counters WHERE "workspaceId" = $1`, [ws]);
    expect(rows.rows[0].n).toBe(2);
    await recordUsages(pool, {
      workspaceId: ws,
      agentId,
      usages: [
        { meter: "tokens", amount: -40 },
        { meter: "cost_usd", amount: -500 },
        { meter: "model_calls", amount: 0 },
      ],
    });
    for (const [scope, meter] of [
      ["workspace", "tokens"],
      ["agent", "model_calls"],
      ["agent", "cost_usd"],
      ["workspace", "sessions"],
    ] as const) {
      await budget(tenant, {
        scope,
        agentId: scope === "agent" ? agentId : undefined,
        meter,
        limit: 1,
        period: "day",
        action: "notify",
      });
    }
    const listed = await t.http.get("/v1/budgets").set(tenant.auth);
    expect(Object.fromEntries(listed.body.data.map((b: { meter: string; used: number }) => [b.meter, b.used]))).toEqual(
      {
        tokens: 60,
        model_calls: 1,
        cost_usd: 0.002,
        sessions: 0,
      },
    );
  });

  it("stays exact under concurrent increments, spread over the counter's shards", async () => {
    const tenant = await t.newTenant();
    const pool = t.platform.ctx.db.pool;
    // Workspace-only and agent writes, one meter or several, at once: every statement locks its rows in one order.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        recordUsages(pool, {
          workspaceId: tenant.workspaceId,
          agentId: [null, "agent_a", "agent_b", "agent_a"][i % 4],
          usages:
            i % 2 === 0
              ? [{ meter: "model_calls", amount: 1 }]
              : [
                  { meter: "tokens", amount: 3 },
                  { meter: "model_calls", amount: 1 },
                ],
        }),
      ),
    );
    const { rows } = await pool.query(
      `SELECT "agentId", sum("model_calls_total")::int AS calls, sum("tokens_total")::int AS tokens,
         count(*)::int <= 8 AS sharded FROM usage_counters WHERE "workspaceId" = $1 GROUP BY "agentId" ORDER BY "agentId"`,
      [tenant.workspaceId],
    );
    expect(rows).toEqual([
      { agentId: "", calls: 40, tokens: 60, sharded: true },
      { agentId: "agent_a", calls: 20, tokens: 60, sharded: true },
      { agentId: "agent_b", calls: 10, tokens: 0, sharded: true },
    ]);
  });

  it("reports the first exceeded blocking budget, workspace before agent, ignoring notify budgets", async () => {
    const tenant = await t.newTenant();
    const pool = t.platform.ctx.db.pool;
    const agentId = await newAgent(tenant);
    const otherAgent = await newAgent(tenant);
    const ws = tenant.workspaceId;
    await budget(tenant, { scope: "agent", agentId, meter: "sessions", limit: 2, period: "total", action: "block" });
    await budget(tenant, { scope: "workspace", meter: "tokens", limit: 100, period: "day", action: "notify" });

    expect(await checkBudgets(pool, { workspaceId: ws, agentId, meters: ["sessions", "tokens"] })).toBeNull();
    await recordUsage(pool, { workspaceId: ws, agentId, meter: "sessions", amount: 1 });
    expect(await checkBudgets(pool, { workspaceId: ws, agentId, meters: ["sessions"] })).toBeNull();
    await recordUsage(pool, { workspaceId: ws, agentId, meter: "sessions", amount: 1 });
    expect(await checkBudgets(pool, { workspaceId: ws, agentId, meters: ["sessions"] })).toEqual({
      scope: "agent",
      meter: "sessions",
      limit: 2,
      used: 2,
    });
    // Another agent, the workspace as a whole and other meters are not blocked by that agent's budget.
    expect(await checkBudgets(pool, { workspaceId: ws, agentId: otherAgent, meters: ["sessions"] })).toBeNull();
    expect(await checkBudgets(pool, { workspaceId: ws, meters: ["sessions"] })).toBeNull();
    expect(await checkBudgets(pool, { workspaceId: ws, agentId, meters: ["tokens"] })).toBeNull();
    // A notify budget never blocks.
    await recordUsage(pool, { workspaceId: ws, agentId, meter: "tokens", amount: 500 });
    expect(await checkBudgets(pool, { workspaceId: ws, agentId: otherAgent, meters: ["tokens"] })).toBeNull();

    await budget(tenant, { scope: "workspace", meter: "sessions", limit: 2, period: "month", action: "block" });
    expect(await checkBudgets(pool, { workspaceId: ws, agentId, meters: ["sessions"] })).toEqual({
      scope: "workspace",
      meter: "sessions",
      limit: 2,
      used: 2,
    });
    expect(await checkBudgets(pool, { workspaceId: ws, agentId: otherAgent, meters: ["sessions"] })).toMatchObject({
      scope: "workspace",
    });
    const error = budgetExceededError({ scope: "workspace", meter: "sessions", limit: 2, used: 2 });
    expect(error).toMatchObject({
      code: "budget.exceeded",
      status: 403,
      details: { scope: "workspace", meter: "sessions", limit: 2, used: 2 },
    });
  });

  it("reads the budget's period: yesterday's usage does not count against a daily budget", async () => {
    const tenant = await t.newTenant();
    const pool = t.platform.ctx.db.pool;
    const ws = tenant.workspaceId;
    const today = new Date("2026-05-20T10:00:00.000Z");
    const yesterday = new Date("2026-05-19T10:00:00.000Z");
    const lastMonth = new Date("2026-04-30T10:00:00.000Z");
    await budget(tenant, { scope: "workspace", meter: "model_calls", limit: 5, period: "day", action: "block" });
    await recordUsage(pool, { workspaceId: ws, meter: "model_calls", amount: 5, now: yesterday });
    expect(await checkBudgets(pool, { workspaceId: ws, meters: ["model_calls"], now: today })).toBeNull();
    expect(await checkBudgets(pool, { workspaceId: ws, meters: ["model_calls"], now: yesterday })).toMatchObject({
      used: 5,
    });

    await budget(tenant, { scope: "workspace", meter: "tokens", limit: 10, period: "month", action: "block" });
    await recordUsage(pool, { workspaceId: ws, meter: "tokens", amount: 10, now: lastMonth });
    expect(await checkBudgets(pool, { workspaceId: ws, meters: ["tokens"], now: today })).toBeNull();
    await recordUsage(pool, { workspaceId: ws, meter: "tokens", amount: 10, now: yesterday });
    expect(await checkBudgets(pool, { workspaceId: ws, meters: ["tokens"], now: today })).toEqual({
      scope: "workspace",
      meter: "tokens",
      limit: 10,
      used: 10,
    });
  });

  // One shard: every write meets the same row, so each branch (add, start afresh, leave alone) is taken in turn.
  // Random shards: a period's consumption is summed over rows last written in different periods.
  it.each(["one shard", "random shards"])("rolls the day and the month over (%s)", async (sharding) => {
    if (sharding === "one shard") vi.spyOn(Math, "random").mockReturnValue(0);
    try {
      const tenant = await t.newTenant();
      const pool = t.platform.ctx.db.pool;
      const ws = tenant.workspaceId;
      // Limits of 1: checkBudgets then reports any consumption, with its amount.
      await budget(tenant, { scope: "workspace", meter: "model_calls", limit: 1, period: "day", action: "block" });
      await budget(tenant, { scope: "workspace", meter: "tokens", limit: 1, period: "month", action: "block" });
      await budget(tenant, { scope: "workspace", meter: "sessions", limit: 1, period: "total", action: "block" });
      const record = (now: string, calls: number, tokens: number, sessions = 0) =>
        recordUsages(pool, {
          workspaceId: ws,
          usages: [
            { meter: "model_calls", amount: calls },
            { meter: "tokens", amount: tokens },
            { meter: "sessions", amount: sessions },
          ],
          now: new Date(now),
        });
      const used = async (now: string) => {
        const at = new Date(now);
        const of = async (meter: "model_calls" | "tokens" | "sessions") =>
          (await checkBudgets(pool, { workspaceId: ws, meters: [meter], now: at }))?.used ?? 0;
        return { dayCalls: await of("model_calls"), monthTokens: await of("tokens"), sessions: await of("sessions") };
      };

      await record("2026-06-29T10:00:00.000Z", 2, 10, 1);
      expect(await used("2026-06-29T12:00:00.000Z")).toEqual({ dayCalls: 2, monthTokens: 10, sessions: 1 });
      // The next day: the day counts only its own, the month both.
      await record("2026-06-30T10:00:00.000Z", 1, 5);
      expect(await used("2026-06-30T12:00:00.000Z")).toEqual({ dayCalls: 1, monthTokens: 15, sessions: 1 });
      // A late write dated the day before: not today's, but this month's and the total's.
      await record("2026-06-29T23:00:00.000Z", 4, 20, 1);
      expect(await used("2026-06-30T12:00:00.000Z")).toEqual({ dayCalls: 1, monthTokens: 35, sessions: 2 });
      // A new month.
      await record("2026-07-01T00:00:01.000Z", 1, 7);
      expect(await used("2026-07-01T12:00:00.000Z")).toEqual({ dayCalls: 1, monthTokens: 7, sessions: 2 });
      // A late write dated last month counts in the total only; a settlement below the estimate in its period.
      await record("2026-06-30T23:59:59.000Z", 10, 100, 1);
      await record("2026-07-01T00:00:02.000Z", 0, -3);
      expect(await used("2026-07-01T12:00:00.000Z")).toEqual({ dayCalls: 1, monthTokens: 4, sessions: 3 });
      if (sharding === "one shard") {
        // Past periods are not kept: the counters hold the current ones only.
        expect(await used("2026-06-30T12:00:00.000Z")).toEqual({ dayCalls: 0, monthTokens: 0, sessions: 3 });
        const { rows } = await pool.query(
          `SELECT "month"::text, "day"::text, "tokens_total"::int, "tokens_month"::int, "tokens_day"::int
           FROM usage_counters WHERE "workspaceId" = $1`,
          [ws],
        );
        expect(rows).toEqual([
          { month: "2026-07-01", day: "2026-07-01", tokens_total: 139, tokens_month: 4, tokens_day: 4 },
        ]);
      }
    } finally {
      vi.restoreAllMocks();
    }
  });
});
