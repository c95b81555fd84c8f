import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, message } from "../sessions/helpers.js";
import { getSession, type LogEntry, waitForIdle, waitUntil } from "../sessions/loop-helpers.js";
import type { Tenant } from "../support/factories.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { type FakeModeration, startFakeModeration } from "../support/fake-openai-moderation.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// Model-backed guardrails: OpenAI's moderation endpoint (a strict fake) and an llm_judge on a configured model, both
// counted on the session's usage and on budgets like every model call.
const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let moderation: FakeModeration;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  moderation = await startFakeModeration();
  t = await startTestApp({
    role: "all",
    env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, OPENAI_BASE_URL: moderation.url, OPENAI_API_KEY: moderation.key },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await moderation?.close();
});

const moderated = { name: "moderation", stage: "input", check: { type: "moderation" }, action: "block" };

async function run(tenant: Tenant, agentId: string, text: string) {
  const res = await t.http
    .post(`${tenant.base}/sessions`)
    .set(tenant.auth)
    .send({ agent: agentId, events: [message(text)] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, log: await waitForIdle(t, tenant, res.body.id) };
}

async function budget(tenant: Tenant, agentId: string, meter: string, limit: number): Promise<string> {
  const res = await t.http
    .post("/v1/budgets")
    .set(tenant.auth)
    .send({ scope: "agent", agentId, meter, limit, action: "block", period: "total" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const used = async (tenant: Tenant, id: string) => (await t.http.get(`/v1/budgets/${id}`).set(tenant.auth)).body.used;
const decisions = (log: LogEntry[]) => log.filter((e) => e.type === "session.guardrail");

describe("moderation guardrails", { timeout: 60_000 }, () => {
  it("blocks a message the moderation endpoint flags, before the model is called, and counts the call", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL, guardrails: [moderated] });
    const calls = await budget(tenant, agent.id, "model_calls", 100);
    fake.reset();
    moderation.reset();
    const { log } = await run(tenant, agent.id, "I am going to kill him tonight");
    expect(moderation.requests).toHaveLength(1);
    expect(moderation.requests[0]!.body).toEqual({
      model: "omni-moderation-latest",
      input: "I am going to kill him tonight",
    });
    expect(fake.requests).toHaveLength(0);
    expect(decisions(log)).toMatchObject([
      {
        guardrail: "moderation",
        check: "moderation",
        action: "block",
        triggered: true,
        categories: ["harassment/threatening", "violence"],
        score: 0.93,
        usage: { model: "openai/omni-moderation-2024-09-26", modelCalls: 1, inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
      },
    ]);
    expect(log.at(-1).stopReason).toBe("guardrail_blocked");
    expect(await used(tenant, calls)).toBe(1);
  });

  it("records a passing check with its usage and then calls the model", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL, guardrails: [moderated] });
    const calls = await budget(tenant, agent.id, "model_calls", 100);
    fake.reset();
    fake.enqueue({ text: "Hello!" });
    const { log } = await run(tenant, agent.id, "hello there");
    expect(decisions(log)).toMatchObject([{ triggered: false, categories: [], usage: { modelCalls: 1 } }]);
    expect(log.map((e: LogEntry) => e.type)).toEqual([
      "user.message",
      "session.status_running",
      "session.guardrail",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(await used(tenant, calls)).toBe(2);
  });

  it("is refused by a blocking budget like any model call", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL, guardrails: [moderated] });
    const calls = await budget(tenant, agent.id, "model_calls", 1);
    fake.reset();
    const { log } = await run(tenant, agent.id, "hello");
    // The check used the only call: the model call after it is refused.
    expect(decisions(log)).toHaveLength(1);
    expect(log.at(-2)).toMatchObject({ type: "session.error", error: { code: "budget.exceeded" } });
    expect(fake.requests).toHaveLength(0);
    expect(await used(tenant, calls)).toBe(1);
  });

  it("ends the turn with guardrail.check_failed when the endpoint keeps refusing (rate limit)", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL, guardrails: [moderated] });
    moderation.reset();
    moderation.limitPerMinute(0);
    try {
      const { log } = await run(tenant, agent.id, "hello");
      expect(moderation.requests.map((r) => r.status)).toEqual([429, 429, 429]);
      expect(log.at(-2)).toMatchObject({ type: "session.error", error: { code: "guardrail.check_failed" } });
      expect(log.at(-2).error.message).toContain("Rate limit reached");
      expect(log.at(-1).stopReason).toBe("error");
    } finally {
      moderation.limitPerMinute(undefined);
    }
  });
});

describe("llm_judge guardrails", { timeout: 60_000 }, () => {
  const judged = {
    name: "no-medical-advice",
    stage: "output",
    check: { type: "llm_judge", rubric: "The answer gives no medical advice.", model: MODEL },
    action: "block",
  };
  const isJudge = (body: { messages?: { role: string; content: unknown }[] }) =>
    String(body.messages?.[0]?.content ?? "").startsWith("You check texts against a policy");

  it("blocks an answer the judge scores below the threshold, counting both calls on usage and budgets", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL, guardrails: [judged] });
    const tokens = await budget(tenant, agent.id, "tokens", 1_000_000);
    fake.reset();
    fake.enqueue(
      { text: "Take 800 mg of ibuprofen every 4 hours.", usage: { promptTokens: 100, completionTokens: 12 } },
      { text: '{"score": 0.05, "reason": "It recommends a dose."}', usage: { promptTokens: 60, completionTokens: 9 } },
    );
    const { id, log } = await run(tenant, agent.id, "my head hurts");
    expect(fake.requests).toHaveLength(2);
    expect(isJudge(fake.requests[1]!.body)).toBe(true);
    expect(JSON.stringify(fake.requests[1]!.body)).toContain("The answer gives no medical advice.");
    expect(log.some((e: LogEntry) => e.type === "agent.message")).toBe(false);
    expect(decisions(log)).toMatchObject([
      {
        guardrail: "no-medical-advice",
        stage: "output",
        check: "llm_judge",
        triggered: true,
        score: 0.05,
        reason: "It recommends a dose.",
        usage: { model: MODEL, modelCalls: 1, inputTokens: 60, outputTokens: 9 },
      },
    ]);
    expect(log.at(-1).stopReason).toBe("guardrail_blocked");
    expect((await getSession(t, tenant, id)).usage).toMatchObject({ inputTokens: 160, outputTokens: 21 });
    expect(await used(tenant, tokens)).toBe(181);
  });

  it("lets an answer through when the judge scores it at or above the threshold", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, guardrails: [judged] });
    fake.reset();
    fake.enqueue({ text: "Please see a doctor." }, { text: '{"score": 0.9, "reason": "No advice."}' });
    const { log } = await run(t.tenant, agent.id, "my head hurts");
    const reply = log.find((e: LogEntry) => e.type === "agent.message");
    expect(reply.content[0].text).toBe("Please see a doctor.");
    expect(decisions(log)).toMatchObject([{ triggered: false, score: 0.9, targetSeq: reply.seq }]);
    expect(log.at(-1).stopReason).toBe("end_turn");
  });

  it("stops on user.interrupt while the judge checks the reply: the reply is not written, its call is counted", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, guardrails: [judged] });
    fake.reset();
    fake.enqueue({ text: "Take two pills.", usage: { promptTokens: 40, completionTokens: 5 } }, { hang: true });
    const res = await t.http
      .post(`${t.tenant.base}/sessions`)
      .set(t.tenant.auth)
      .send({ agent: agent.id, events: [message("my head hurts")] });
    await waitUntil("the judge call", async () =>
      fake.requests.some((r) => isJudge(r.body) && r.outcome === "pending") ? true : undefined,
    );
    await t.http
      .post(`${t.tenant.base}/sessions/${res.body.id}/events`)
      .set(t.tenant.auth)
      .send({ events: [{ type: "user.interrupt" }] });
    const log = await waitForIdle(t, t.tenant, res.body.id);
    expect(log.at(-1).stopReason).toBe("interrupted");
    expect(log.some((e: LogEntry) => e.type === "agent.message")).toBe(false);
    expect(JSON.stringify(log)).not.toContain("Take two pills");
    expect(log.filter((e: LogEntry) => e.type === "agent.usage")).toMatchObject([{ inputTokens: 40, outputTokens: 5 }]);
  });

  it("fails the turn, counting the calls, when the judge gives no verdict", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, guardrails: [judged] });
    fake.reset();
    fake.enqueue({ text: "Rest." }, { text: "looks fine to me" });
    const { id, log } = await run(t.tenant, agent.id, "tired");
    expect(log.at(-2)).toMatchObject({ type: "session.error", error: { code: "guardrail.check_failed" } });
    expect(log.some((e: LogEntry) => e.type === "agent.message")).toBe(false);
    expect((await getSession(t, t.tenant, id)).usage.outputTokens).toBeGreaterThan(0);
  });
});
