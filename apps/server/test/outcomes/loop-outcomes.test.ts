import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, expectInvalid, message, newSession, postEvents, postSession } from "../sessions/helpers.js";
import { expectGapFree, getSession, types, waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createWebhook, waitUntil } from "../webhooks/helpers.js";
import { type Receiver, startReceiver } from "../webhooks/receiver.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let receiver: Receiver;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  receiver = await startReceiver();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const verdict = (score: number, reason: string) => ({ text: JSON.stringify({ score, reason }) });
const isJudgeCall = (body: { messages?: { role: string; content: unknown }[] }) =>
  JSON.stringify(body.messages?.[0] ?? "").includes("You grade answers");

describe("outcomes in the loop", () => {
  it("sends a failing answer back with the feedback until it passes (fails twice, then passes)", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue(
      { text: "draft one" },
      verdict(0.2, "too vague"),
      { text: "draft two" },
      verdict(0.4, "still vague"),
      { text: "the final answer: 42" },
      verdict(0.9, "precise"),
    );
    const session = await newSession(t, t.tenant, {
      agent: agent.id,
      outcome: {
        scorers: [
          { type: "contains", value: "answer" },
          { type: "llm_judge", rubric: "Be precise." },
        ],
      },
      events: [message("what is it?")],
    });
    expect(session.outcome).toEqual({ state: "pending", revisions: 0, maxRevisions: 2 });
    const log = await waitForIdle(t, t.tenant, session.id);
    expectGapFree(log);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.outcome_evaluation",
      "agent.message",
      "agent.usage",
      "session.outcome_evaluation",
      "agent.message",
      "agent.usage",
      "session.outcome_evaluation",
      "session.status_idle",
    ]);
    const evaluations = log.filter((e: { type: string }) => e.type === "session.outcome_evaluation");
    expect(evaluations.map((e: { verdict: string }) => e.verdict)).toEqual(["failed", "failed", "passed"]);
    expect(evaluations.map((e: { revise: boolean }) => e.revise)).toEqual([true, true, false]);
    expect(evaluations.map((e: { revision: number }) => e.revision)).toEqual([0, 1, 2]);
    expect(evaluations[0]).toMatchObject({
      answerSeq: 3,
      scores: [
        { type: "contains", passed: false },
        { type: "llm_judge", passed: false, score: 0.2, reason: "too vague" },
      ],
      usage: { model: MODEL, modelCalls: 1 },
    });
    expect(evaluations[0].feedback).toContain("too vague");
    expect(evaluations[2].feedback).toBeNull();
    expect(log.at(-1).stopReason).toBe("end_turn");

    // The agent's second call saw its first answer and the feedback as the newest user message.
    const agentCalls = fake.requests.filter((r) => r.path.endsWith("/chat/completions") && !isJudgeCall(r.body));
    expect(agentCalls).toHaveLength(3);
    const second = agentCalls[1]!.body.messages;
    expect(second.at(-2)).toMatchObject({ role: "assistant", content: "draft one" });
    expect(second.at(-1).role).toBe("user");
    expect(JSON.stringify(second.at(-1).content)).toContain("too vague");
    // The judge was given the user's message and the answer.
    const judgeCalls = fake.requests.filter((r) => r.path.endsWith("/chat/completions") && isJudgeCall(r.body));
    expect(judgeCalls).toHaveLength(3);
    expect(JSON.stringify(judgeCalls[0]!.body.messages)).toContain("what is it?");
    expect(JSON.stringify(judgeCalls[0]!.body.messages)).toContain("draft one");

    const record = await getSession(t, t.tenant, session.id);
    expect(record).toMatchObject({ status: "idle", outcome: { state: "passed", revisions: 2, maxRevisions: 2 } });
  });

  it("ends the turn failed when the revisions are used up", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue({ text: "not json" }, { text: "still not json" });
    const session = await newSession(t, t.tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "json_valid" }], maxRevisions: 1 },
      events: [message("answer in JSON")],
    });
    const log = await waitForIdle(t, t.tenant, session.id);
    const evaluations = log.filter((e: { type: string }) => e.type === "session.outcome_evaluation");
    expect(evaluations.map((e: { verdict: string; revise: boolean }) => [e.verdict, e.revise])).toEqual([
      ["failed", true],
      ["failed", false],
    ]);
    expect(evaluations[1].feedback).toContain("no revision is left");
    expect(evaluations[1].usage).toEqual({ model: null, modelCalls: 0, inputTokens: 0, outputTokens: 0 });
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "end_turn" });
    expect(await getSession(t, t.tenant, session.id)).toMatchObject({
      outcome: { state: "failed", revisions: 1, maxRevisions: 1 },
    });

    // The next turn starts pending again, and is graded on its own revisions.
    fake.enqueue({ text: '{"ok": true}' });
    await postEvents(t, t.tenant, session.id, [message("again")]);
    const after = await waitForIdle(t, t.tenant, session.id, 2);
    expect(after.at(-2)).toMatchObject({ type: "session.outcome_evaluation", verdict: "passed", revision: 0 });
    expect(await getSession(t, t.tenant, session.id)).toMatchObject({ outcome: { state: "passed", revisions: 0 } });
  });

  it("opens a turn that starts in place with the outcome pending, in the statement that took the message", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue({ text: '{"ok": true}' });
    const session = await newSession(t, t.tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "json_valid" }], maxRevisions: 3 },
    });
    const posted = await postEvents(t, t.tenant, session.id, [message("answer in JSON")]);
    expect(posted.body.session).toMatchObject({
      status: "running",
      lastSeq: 2,
      outcome: { state: "pending", revisions: 0, maxRevisions: 3 },
    });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log).slice(0, 2)).toEqual(["user.message", "session.status_running"]);
    expect(log.filter((e: { type: string }) => e.type === "session.status_running")).toHaveLength(1);
    expect(await getSession(t, t.tenant, session.id)).toMatchObject({ outcome: { state: "passed", maxRevisions: 3 } });
  });

  it("counts judge calls against budgets: a budget reached during grading ends the turn with budget.exceeded", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL });
    // One model call allowed: the agent's answer uses it, the judge's call is refused before it is sent.
    const budget = await t.http
      .post("/v1/budgets")
      .set(tenant.auth)
      .send({ scope: "agent", agentId: agent.id, meter: "model_calls", limit: 1, action: "block", period: "total" });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    fake.enqueue({ text: "an answer" });
    const session = await newSession(t, tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "llm_judge" }] },
      events: [message("hi")],
    });
    const log = await waitForIdle(t, tenant, session.id);
    expect(types(log).slice(-3)).toEqual(["agent.usage", "session.error", "session.status_idle"]);
    expect(log.at(-2).error.code).toBe("budget.exceeded");
    expect(log.at(-2).error.message).toContain("grading the outcome");
    expect(fake.requests.filter((r) => isJudgeCall(r.body))).toHaveLength(0);
    expect(await getSession(t, tenant, session.id)).toMatchObject({ outcome: { state: "pending" } });
    const usage = await t.http.get(`/v1/budgets/${budget.body.id}`).set(tenant.auth);
    expect(usage.body.used).toBe(1);
  });

  it("counts a judge call's tokens exactly with a blocking tokens budget", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL });
    const budget = await t.http
      .post("/v1/budgets")
      .set(tenant.auth)
      .send({ scope: "agent", agentId: agent.id, meter: "tokens", limit: 1_000_000, action: "block", period: "total" });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    fake.enqueue(
      { text: "an answer", usage: { promptTokens: 100, completionTokens: 10 } },
      { ...verdict(1, "fine"), usage: { promptTokens: 50, completionTokens: 7 } },
    );
    const session = await newSession(t, tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "llm_judge" }] },
      events: [message("hi")],
    });
    const log = await waitForIdle(t, tenant, session.id);
    expect(log.at(-2)).toMatchObject({ verdict: "passed", usage: { inputTokens: 50, outputTokens: 7 } });
    const read = await t.http.get(`/v1/budgets/${budget.body.id}`).set(tenant.auth);
    expect(read.body.used).toBe(167);
  });

  it("reports the outcome with a session.outcome_evaluated webhook event, before session.idle", async () => {
    const tenant = await t.newTenant();
    await createWebhook(t, tenant, {
      url: receiver.url,
      events: ["session.outcome_evaluated", "session.idle"],
    });
    const agent = await createAgent(t, tenant, { model: MODEL });
    fake.enqueue({ text: "no" }, { text: "yes" });
    const session = await newSession(t, tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "regex", pattern: "^yes$" }], maxRevisions: 3 },
      events: [message("say yes")],
    });
    await waitForIdle(t, tenant, session.id);
    const mine = await waitUntil("the deliveries", async () => {
      const found = receiver.received.filter((r) => r.event.data.sessionId === session.id);
      return found.length >= 2 ? found : undefined;
    });
    expect(mine.map((r) => r.event.type)).toEqual(["session.outcome_evaluated", "session.idle"]);
    expect(mine[0]!.event.data).toMatchObject({ sessionId: session.id, state: "passed", revisions: 1 });
  });

  it("ends the turn with outcome.grading_failed when the judge gives no verdict, counting its call", async () => {
    const tenant = await t.newTenant();
    const agent = await createAgent(t, tenant, { model: MODEL });
    const budget = await t.http
      .post("/v1/budgets")
      .set(tenant.auth)
      .send({ scope: "agent", agentId: agent.id, meter: "model_calls", limit: 10, action: "block", period: "total" });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    fake.enqueue({ text: "an answer" }, { text: "I think it is fine" });
    const session = await newSession(t, tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "llm_judge" }] },
      events: [message("hi")],
    });
    const log = await waitForIdle(t, tenant, session.id);
    expect(types(log).slice(-2)).toEqual(["session.error", "session.status_idle"]);
    expect(log.at(-2).error).toMatchObject({ code: "outcome.grading_failed" });
    expect(log.at(-2).error.message).toContain("did not answer with JSON");
    const read = await t.http.get(`/v1/budgets/${budget.body.id}`).set(tenant.auth);
    expect(read.body.used).toBe(2);
  });

  it("stops a grading on user.interrupt: no evaluation, the outcome stays pending", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue({ text: "an answer" }, { hang: true });
    const session = await newSession(t, t.tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "llm_judge" }] },
      events: [message("hi")],
    });
    await waitUntil("the judge call", async () =>
      fake.requests.some((r) => isJudgeCall(r.body) && r.outcome === "pending") ? true : undefined,
    );
    await postEvents(t, t.tenant, session.id, [{ type: "user.interrupt" }]);
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).not.toContain("session.outcome_evaluation");
    expect(log.at(-1).stopReason).toBe("interrupted");
    expect(await getSession(t, t.tenant, session.id)).toMatchObject({ outcome: { state: "pending" } });
  });

  it("refuses an outcome the loop could not grade", async () => {
    const agent = await createAgent(t, t.tenant);
    const bad = await postSession(t, t.tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "exact_match" }], maxRevisions: 11 },
    });
    expectInvalid(bad, ["body.outcome.scorers.0.type", "body.outcome.maxRevisions"]);
    const regex = await postSession(t, t.tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "regex", pattern: "(a)\\1" }] },
    });
    expectInvalid(regex, ["body.outcome.scorers.0.pattern"]);
    // A run scorer needs a case's run, which a session's answer does not have.
    const run = await postSession(t, t.tenant, { agent: agent.id, outcome: { scorers: [{ type: "trajectory" }] } });
    expectInvalid(run, ["body.outcome.scorers.0.type"]);
  });

  it("leaves a session without an outcome as it was", async () => {
    const agent = await createAgent(t, t.tenant);
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("hello")] });
    expect(session.outcome).toBeNull();
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).not.toContain("session.outcome_evaluation");
  });
});
