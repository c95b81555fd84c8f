import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allResults, createDataset, createExperiment, waitForEnd } from "../experiments/helpers.js";
import { createAgent, message } from "../sessions/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import { expectError } from "../support/expect-error.js";
import type { Tenant } from "../support/factories.js";
import { type FakeOpenAI, lastUserText, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function addBudget(tenant: Tenant, body: Record<string, unknown>): Promise<string> {
  const res = await t.http
    .post("/v1/budgets")
    .set(tenant.auth)
    .send({ action: "block", period: "total", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function usedOf(tenant: Tenant, budgetId: string): Promise<number> {
  const res = await t.http.get(`/v1/budgets/${budgetId}`).set(tenant.auth);
  return res.body.used;
}

describe("budgets reserve before the work", () => {
  it("lets exactly `limit` of many concurrent session creations through", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant);
    const budgetId = await addBudget(tenant, { scope: "workspace", meter: "sessions", limit: 5 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.http.post(`${tenant.base}/sessions`).set(tenant.auth).send({ agent: agent.id }),
      ),
    );
    const created = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(created).toHaveLength(5);
    for (const res of refused) {
      expectError(res, 403, "budget.exceeded");
      expect(res.body.error.details).toEqual({ scope: "workspace", meter: "sessions", limit: 5, used: 5 });
    }
    expect(await usedOf(tenant, budgetId)).toBe(5);
  });

  it("lets exactly `limit` of concurrent model calls reach the provider; the others end with budget.exceeded", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL });
    const budgetId = await addBudget(tenant, { scope: "agent", agentId: agent.id, meter: "model_calls", limit: 3 });
    fake.reset();
    fake.respondWith((request) => ({ text: lastUserText(request.body), delayMs: 200 }));
    const sessions = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const res = await t.http
          .post(`${tenant.base}/sessions`)
          .set(tenant.auth)
          .send({ agent: agent.id, events: [message(`hello ${i}`)] });
        return res.body.id as string;
      }),
    );
    const logs = await Promise.all(sessions.map((id) => waitForIdle(t, tenant, id)));
    const answered = logs.filter((log) => log.some((e) => e.type === "agent.message"));
    const refused = logs.filter((log) =>
      log.some((e) => e.type === "session.error" && (e.error as { code: string }).code === "budget.exceeded"),
    );
    expect(answered).toHaveLength(3);
    expect(refused).toHaveLength(3);
    expect(fake.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(3);
    expect(await usedOf(tenant, budgetId)).toBe(3);
    fake.respondWith(undefined);
  });

  it("reserves a call's estimated tokens, settles them with the real count, and gives back a failed call's", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: { id: MODEL, maxOutputTokens: 100 } });
    const tokens = await addBudget(tenant, { scope: "agent", agentId: agent.id, meter: "tokens", limit: 100_000 });
    const calls = await addBudget(tenant, { scope: "agent", agentId: agent.id, meter: "model_calls", limit: 100 });
    fake.reset();
    fake.enqueue({ text: "fine", usage: { promptTokens: 30, completionTokens: 2 } });
    const ok = await t.http
      .post(`${tenant.base}/sessions`)
      .set(tenant.auth)
      .send({ agent: agent.id, events: [message("first")] });
    await waitForIdle(t, tenant, ok.body.id);
    expect(await usedOf(tenant, tokens)).toBe(32);
    expect(await usedOf(tenant, calls)).toBe(1);

    fake.enqueue({ status: 400, body: { error: { message: "rejected", type: "invalid_request_error" } } });
    const failed = await t.http
      .post(`${tenant.base}/sessions`)
      .set(tenant.auth)
      .send({ agent: agent.id, events: [message("second")] });
    const log = await waitForIdle(t, tenant, failed.body.id);
    expect(log.some((e) => e.type === "session.error")).toBe(true);
    expect(await usedOf(tenant, tokens)).toBe(32);
    expect(await usedOf(tenant, calls)).toBe(1);

    // A call whose estimate (its context plus maxOutputTokens 100) has no room is refused before it is sent.
    const small = await addBudget(tenant, { scope: "agent", agentId: agent.id, meter: "tokens", limit: 80 });
    fake.reset();
    const refused = await t.http
      .post(`${tenant.base}/sessions`)
      .set(tenant.auth)
      .send({ agent: agent.id, events: [message("third")] });
    expect(refused.status).toBe(201);
    const refusedLog = await waitForIdle(t, tenant, refused.body.id);
    expect(refusedLog.find((e) => e.type === "session.error")).toMatchObject({ error: { code: "budget.exceeded" } });
    expect(fake.requests).toHaveLength(0);
    expect(await usedOf(tenant, small)).toBe(32);
  });

  it("obeys a blocking budget another process writes, and its removal, from the next turn on", async () => {
    // Each process remembers which blocking budgets a workspace has (model calls skip the read when it has none); a
    // change written elsewhere (here: straight into the database, as another API process would) reaches it by NOTIFY.
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL });
    fake.reset();
    fake.respondWith((request) => ({ text: lastUserText(request.body) }));
    const session = await t.http
      .post(`${tenant.base}/sessions`)
      .set(tenant.auth)
      .send({ agent: agent.id, events: [message("before")] });
    await waitForIdle(t, tenant, session.body.id);
    const post = (text: string) =>
      t.http
        .post(`${tenant.base}/sessions/${session.body.id}/events`)
        .set(tenant.auth)
        .send({ events: [message(text)] });
    await post("before, again");
    await waitForIdle(t, tenant, session.body.id, 2);
    const { pool } = t.platform.ctx.db;
    const budgetId = `budget_elsewhere_${Date.now()}`;
    await pool.query(
      `INSERT INTO budgets ("id", "workspaceId", "scope", "meter", "period", "limit", "action")
       VALUES ($1, $2, 'workspace', 'model_calls', 'total', 1, 'block')`,
      [budgetId, tenant.workspaceId],
    );
    await post("while capped");
    const capped = await waitForIdle(t, tenant, session.body.id, 3);
    expect(capped.at(-2)).toMatchObject({ type: "session.error", error: { code: "budget.exceeded" } });
    expect(fake.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(2);

    await pool.query(`DELETE FROM budgets WHERE "id" = $1`, [budgetId]);
    await post("after");
    const after = await waitForIdle(t, tenant, session.body.id, 4);
    expect(after.filter((e) => e.type === "agent.message").at(-1)).toMatchObject({
      content: [{ type: "text", text: "after" }],
    });
    expect(fake.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(3);
  });

  it("makes an experiment's model cases over the budget case errors", async () => {
    const tenant = await t.newTenant();
    await addBudget(tenant, { scope: "workspace", meter: "model_calls", limit: 1 });
    const datasetId = await createDataset(t, tenant, [{ input: "a" }, { input: "b" }, { input: "c" }]);
    const created = await createExperiment(t, tenant, {
      datasetId,
      name: "capped",
      task: { type: "model", model: "builtin/echo" },
      scorers: [{ type: "not_empty" }],
      concurrency: 1,
    });
    const done = await waitForEnd(t, tenant, created.id);
    expect(done).toMatchObject({ status: "completed", progress: { done: 3, errored: 2 } });
    const results = await allResults(t, tenant, created.id);
    expect(results.filter((r) => r.status === "error").map((r) => r.error)).toEqual([
      expect.stringMatching(/^budget exceeded: The workspace has used 1 of its 1 model_calls budget/),
      expect.stringMatching(/^budget exceeded: /),
    ]);
  });
});
