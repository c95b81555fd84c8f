import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  allResults,
  createAgent,
  createDataset,
  createExperiment,
  expectInvalid,
  postExperiment,
  waitForEnd,
} from "../experiments/helpers.js";
import { readLog } from "../sessions/helpers.js";
import { type FakeOpenAI, type FakeRequest, lastUserText, startFakeOpenAI } from "../support/fake-openai.js";
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

// biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
const systemOf = (r: FakeRequest) => ((r.body.messages as any[])[0]?.content as string) ?? "";

describe("an experiment's agent task with an outcome", () => {
  it("grades and revises each case's answer in its session; the case is scored on the revised answer", async () => {
    // The agent answers "draft" first, and "FINAL" once it is given the outcome's feedback; the judge counts tokens.
    fake.respondWith((request) => {
      if (systemOf(request).startsWith("You grade answers")) {
        return { text: JSON.stringify({ score: 1, reason: "ok" }), usage: { promptTokens: 40, completionTokens: 5 } };
      }
      const text = lastUserText(request.body);
      return {
        text: text.includes("did not meet") ? "FINAL" : "draft",
        usage: { promptTokens: 10, completionTokens: 2 },
      };
    });
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const datasetId = await createDataset(t, t.tenant, [{ input: "go", expected: "FINAL" }]);
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "with outcome",
      task: {
        type: "agent",
        agentId: agent.id,
        outcome: { scorers: [{ type: "regex", pattern: "^FINAL$" }, { type: "llm_judge" }], maxRevisions: 1 },
      },
      scorers: [{ type: "exact_match" }],
    });
    expect(created.task.outcome).toEqual({
      scorers: [{ type: "regex", pattern: "^FINAL$" }, { type: "llm_judge" }],
      maxRevisions: 1,
    });
    const done = await waitForEnd(t, t.tenant, created.id);
    expect(done).toMatchObject({ status: "completed", progress: { done: 1, errored: 0 } });
    const [result] = await allResults(t, t.tenant, created.id);
    expect(result).toMatchObject({ status: "completed", output: "FINAL", scores: [{ passed: true }] });
    // Two agent calls (12 tokens each) and two judge calls (45 each) of the outcome.
    expect(result.usage).toMatchObject({ inputTokens: 100, outputTokens: 14 });
    const log = await readLog(t, t.tenant, result.sessionId);
    const verdicts = log.filter((e: { type: string }) => e.type === "session.outcome_evaluation");
    expect(verdicts.map((e: { verdict: string }) => e.verdict)).toEqual(["failed", "passed"]);
  });

  it("refuses an outcome regex RE2 cannot compile", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const datasetId = await createDataset(t, t.tenant, [{ input: "go" }]);
    const res = await postExperiment(t, t.tenant, {
      datasetId,
      name: "bad",
      task: { type: "agent", agentId: agent.id, outcome: { scorers: [{ type: "regex", pattern: "(a)\\1" }] } },
      scorers: [{ type: "not_empty" }],
    });
    expectInvalid(res, ["body.task.outcome.scorers.0.pattern"]);
  });
});
