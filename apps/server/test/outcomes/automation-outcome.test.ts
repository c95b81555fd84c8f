import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createAgent,
  createAutomation,
  expectInvalid,
  readLog,
  runNow,
  waitForRuns,
  YEARLY,
} from "../automations/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
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
beforeEach(() => fake.reset());

describe("an automation with an outcome", () => {
  it("stores it, and each firing's session carries it", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const automation = await createAutomation(t, t.tenant, agent.id, {
      outcome: { scorers: [{ type: "contains", value: "done" }] },
    });
    expect(automation.outcome).toEqual({ scorers: [{ type: "contains", value: "done" }], maxRevisions: 2 });

    fake.enqueue({ text: "working on it" }, { text: "report done" });
    await runNow(t, t.tenant, automation.id);
    const [run] = await waitForRuns(t, t.tenant, automation.id, 1);
    expect(run.status).toBe("started");
    const log = await waitForIdle(t, t.tenant, run.sessionId);
    const verdicts = log.filter((e: { type: string }) => e.type === "session.outcome_evaluation");
    expect(verdicts.map((e: { verdict: string }) => e.verdict)).toEqual(["failed", "passed"]);
    const session = await t.http.get(`${t.tenant.base}/sessions/${run.sessionId}`).set(t.tenant.auth);
    expect(session.body.outcome).toEqual({ state: "passed", revisions: 1, maxRevisions: 2 });
    expect((await readLog(t, t.tenant, run.sessionId)).length).toBe(log.length);

    // Removed with null: the next firing's session has none.
    const patched = await t.http
      .patch(`${t.tenant.base}/automations/${automation.id}`)
      .set(t.tenant.auth)
      .send({ outcome: null });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.outcome).toBeNull();
    fake.enqueue({ text: "plain" });
    await runNow(t, t.tenant, automation.id);
    const runs = await waitForRuns(t, t.tenant, automation.id, 2);
    const second = await waitForIdle(t, t.tenant, runs[0].sessionId);
    expect(second.map((e: { type: string }) => e.type)).not.toContain("session.outcome_evaluation");
  });

  it("refuses an outcome regex RE2 cannot compile", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const res = await t.http
      .post(`${t.tenant.base}/automations`)
      .set(t.tenant.auth)
      .send({
        name: "bad",
        agentId: agent.id,
        prompt: "x",
        trigger: YEARLY,
        outcome: { scorers: [{ type: "regex", pattern: "(?=a)" }] },
      });
    expectInvalid(res, ["body.outcome.scorers.0.pattern"]);
  });
});
