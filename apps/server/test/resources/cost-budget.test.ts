import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, message } from "../sessions/helpers.js";
import { getSession, waitForIdle } from "../sessions/loop-helpers.js";
import { expectError } from "../support/expect-error.js";
import type { Tenant } from "../support/factories.js";
import { type FakeOpenAI, lastUserText, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// Budgets in US dollars: the `cost_usd` meter reserves a call's estimated cost and settles it with the priced usage.
const MODEL = "openai-compatible/fake-model";
// $0.01 a token in and out: a call of 10 prompt and 10 completion tokens costs $0.20.
const PRICED = { id: MODEL, maxOutputTokens: 10, pricing: { input: 10_000, output: 10_000 } };
const USAGE = { promptTokens: 10, completionTokens: 10 };
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

async function addBudget(tenant: Tenant, body: Record<string, unknown>) {
  const res = await t.http
    .post("/v1/budgets")
    .set(tenant.auth)
    .send({ period: "total", meter: "cost_usd", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const budgetOf = async (tenant: Tenant, id: string) => (await t.http.get(`/v1/budgets/${id}`).set(tenant.auth)).body;

async function runSession(tenant: Tenant, agentId: string, text: string) {
  const res = await t.http
    .post(`${tenant.base}/sessions`)
    .set(tenant.auth)
    .send({ agent: agentId, events: [message(text)] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, log: await waitForIdle(t, tenant, res.body.id) };
}

describe("cost budgets (US dollars)", () => {
  it("takes limits in dollars to the micro-dollar and refuses fractions on the count meters", async () => {
    const tenant = await t.newTenant();
    const budget = await addBudget(tenant, { scope: "workspace", limit: 25.000001, action: "notify" });
    expect(budget).toMatchObject({ meter: "cost_usd", limit: 25.000001, used: 0, exceeded: false });
    const fraction = await t.http
      .post("/v1/budgets")
      .set(tenant.auth)
      .send({ scope: "workspace", meter: "tokens", limit: 2.5, action: "block" });
    expectError(fraction, 400, "request.invalid");
    expect(JSON.stringify(fraction.body)).toContain("limit");
    const tooFine = await t.http
      .post("/v1/budgets")
      .set(tenant.auth)
      .send({ scope: "workspace", meter: "cost_usd", limit: 0.0000001, action: "block" });
    expectError(tooFine, 400, "request.invalid");
  });

  it("counts each call's cost, as its usage entry and the session record give it", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: PRICED });
    const budget = await addBudget(tenant, { scope: "agent", agentId: agent.id, limit: 100, action: "block" });
    fake.reset();
    fake.enqueue({ text: "one", usage: USAGE }, { text: "two", usage: USAGE });
    const first = await runSession(tenant, agent.id, "first");
    const second = await runSession(tenant, agent.id, "second");
    for (const { id, log } of [first, second]) {
      expect(log.find((e) => e.type === "agent.usage")).toMatchObject({ costUsd: 0.2 });
      expect((await getSession(t, tenant, id)).usage.costUsd).toBe(0.2);
    }
    expect(await budgetOf(tenant, budget.id)).toMatchObject({ used: 0.4, exceeded: false });
    // A failed call gives its reserved cost back.
    fake.enqueue({ status: 400, body: { error: { message: "rejected", type: "invalid_request_error" } } });
    const failed = await runSession(tenant, agent.id, "third");
    expect(failed.log.some((e) => e.type === "session.error")).toBe(true);
    expect(await budgetOf(tenant, budget.id)).toMatchObject({ used: 0.4 });
  });

  it("lets calls through concurrently only while their reserved cost fits, then refuses sessions", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: PRICED });
    const budget = await addBudget(tenant, { scope: "workspace", limit: 0.5, action: "block" });
    fake.reset();
    // Each reply is held until a second call is in flight (or 10 s passed): calls made one after another would never
    // be two at once.
    let inFlight = 0;
    let most = 0;
    let second: () => void = () => {};
    const twoAtOnce = new Promise<void>((resolve) => {
      second = resolve;
    });
    fake.respondWith((request) => {
      most = Math.max(most, ++inFlight);
      if (inFlight >= 2) second();
      const held = Promise.race([twoAtOnce, new Promise((resolve) => setTimeout(resolve, 10_000))]).finally(() => {
        inFlight--;
      });
      return { text: lastUserText(request.body), usage: USAGE, after: held };
    });
    const logs = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => (await runSession(tenant, agent.id, `hello ${i}`)).log),
    );
    fake.respondWith(undefined);
    const answered = logs.filter((log) => log.some((e) => e.type === "agent.message"));
    const refused = logs.filter((log) =>
      log.some((e) => e.type === "session.error" && (e.error as { code: string }).code === "budget.exceeded"),
    );
    const calls = fake.requests.filter((r) => r.path === "/v1/chat/completions").length;
    // Every call is reserved before it is sent: the spend never passes the limit, however many run at once.
    expect(most).toBeGreaterThanOrEqual(2);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThan(6);
    expect(answered).toHaveLength(calls);
    expect(refused).toHaveLength(6 - calls);
    const after = await budgetOf(tenant, budget.id);
    expect(after.used).toBeCloseTo(calls * 0.2, 6);
    expect(after.used).toBeLessThanOrEqual(0.5);
    const refusal = refused[0]!.find((e) => e.type === "session.error");
    expect(refusal.error.message).toMatch(/US\$[\d.]+ of its US\$0\.5 cost budget/);

    // A budget already reached refuses new sessions outright, with the amounts in dollars.
    await addBudget(tenant, { scope: "workspace", limit: 0.2, action: "block" });
    const res = await t.http.post(`${tenant.base}/sessions`).set(tenant.auth).send({ agent: agent.id });
    expectError(res, 403, "budget.exceeded");
    expect(res.body.error.details).toEqual({ scope: "workspace", meter: "cost_usd", limit: 0.2, used: after.used });
  });

  it("a notify budget lets the work go on and reports that it is exceeded", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: PRICED });
    const budget = await addBudget(tenant, { scope: "agent", agentId: agent.id, limit: 0.3, action: "notify" });
    fake.reset();
    fake.respondWith(() => ({ text: "ok", usage: USAGE }));
    for (const text of ["a", "b"]) {
      const { log } = await runSession(tenant, agent.id, text);
      expect(log.some((e) => e.type === "agent.message")).toBe(true);
    }
    fake.respondWith(undefined);
    expect(await budgetOf(tenant, budget.id)).toMatchObject({ used: 0.4, exceeded: true, limit: 0.3 });
  });

  it("counts nothing in dollars for a model whose price is unknown", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL });
    const budget = await addBudget(tenant, { scope: "workspace", limit: 1, action: "block" });
    fake.reset();
    fake.enqueue({ text: "free?", usage: USAGE });
    const { id, log } = await runSession(tenant, agent.id, "hi");
    expect(log.find((e) => e.type === "agent.usage")).toMatchObject({ costUsd: null });
    expect((await getSession(t, tenant, id)).usage.costUsd).toBeNull();
    expect(await budgetOf(tenant, budget.id)).toMatchObject({ used: 0 });
  });
});
