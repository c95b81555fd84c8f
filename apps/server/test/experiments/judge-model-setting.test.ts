import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import {
  type FakeOpenAI,
  type FakeReply,
  type FakeRequest,
  lastUserText,
  startFakeOpenAI,
} from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { allResults, createDataset, createExperiment, expectError, postExperiment, waitForEnd } from "./helpers.js";

// EXPERIMENT_JUDGE_MODEL (docs/operating.md): the judge of `llm_judge` scorers that name no model — in experiments and
// in a session's outcome — instead of the task's or the session's model; checked at creation like any model named.
let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  fake.respondWith((request): FakeReply => {
    if (!isJudge(request)) return { text: lastUserText(request.body) };
    return { text: '{"score": 0.9, "reason": "fine"}' };
  });
  t = await startTestApp({
    role: "all",
    env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, EXPERIMENT_JUDGE_MODEL: "openai-compatible/judge-model" },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const systemOf = (request: FakeRequest): string =>
  // biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
  ((request.body.messages as any[]).find((m) => m.role === "system")?.content as string | undefined) ?? "";
const isJudge = (request: FakeRequest) => systemOf(request).startsWith("You grade answers");
const modelsOf = (requests: FakeRequest[]) => [...new Set(requests.map((r) => r.body.model as string))];

describe("EXPERIMENT_JUDGE_MODEL", { timeout: 60_000 }, () => {
  it("judges an experiment's llm_judge scorer that names no model (the task runs on its own model)", async () => {
    const datasetId = await createDataset(t, t.tenant, [{ input: "one" }, { input: "two" }]);
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "judged by the setting",
      task: { type: "model", model: "openai-compatible/task-model" },
      scorers: [{ type: "llm_judge", rubric: "Is it right?" }],
    });
    const done = await waitForEnd(t, t.tenant, created.id);
    expect(done.status).toBe("completed");
    const results = await allResults(t, t.tenant, created.id);
    expect(results.map((r) => r.scores)).toEqual([
      [{ type: "llm_judge", score: 0.9, passed: true, reason: "fine" }],
      [{ type: "llm_judge", score: 0.9, passed: true, reason: "fine" }],
    ]);
    const calls = fake.requests.filter((r) => r.path === "/v1/chat/completions");
    expect(modelsOf(calls.filter(isJudge))).toEqual(["judge-model"]);
    expect(calls.filter(isJudge)).toHaveLength(2);
    expect(modelsOf(calls.filter((r) => !isJudge(r)))).toEqual(["task-model"]);
  });

  it("judges a session's outcome when its llm_judge scorer names no model", async () => {
    const before = fake.requests.length;
    const agent = await createAgent(t, t.tenant, { model: "openai-compatible/session-model" });
    const session = await newSession(t, t.tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "llm_judge", rubric: "Is it polite?" }] },
      events: [message("hello")],
    });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(log.find((e: { type: string }) => e.type === "session.outcome_evaluation")).toMatchObject({
      verdict: "passed",
      usage: { model: "openai-compatible/judge-model" },
    });
    const calls = fake.requests.slice(before);
    expect(modelsOf(calls.filter(isJudge))).toEqual(["judge-model"]);
    expect(modelsOf(calls.filter((r) => !isJudge(r)))).toEqual(["session-model"]);
  });

  it("a judge model this server cannot call is refused when the experiment is created (422)", async () => {
    const other = await startTestApp({
      env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, EXPERIMENT_JUDGE_MODEL: "anthropic/claude-sonnet-4-5" },
    });
    try {
      const datasetId = await createDataset(other, other.tenant, [{ input: "one" }]);
      const res = await postExperiment(other, other.tenant, {
        datasetId,
        name: "no judge here",
        task: { type: "model", model: "openai-compatible/task-model" },
        scorers: [{ type: "llm_judge", rubric: "Is it right?" }],
      });
      expectError(res, 422, "experiment.invalid_model");
      expect(res.body.error.message).toMatch(/anthropic/i);
    } finally {
      await other.close();
    }
  });
});
