import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAI,
  type FakeReply,
  type FakeRequest,
  lastUserText,
  startFakeOpenAI,
} from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  allResults,
  createAgent,
  createDataset,
  createExperiment,
  getExperiment,
  updateAgent,
  waitForEnd,
  waitUntil,
} from "./helpers.js";

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

const systemOf = (request: FakeRequest): string =>
  // biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
  ((request.body.messages as any[]).find((m) => m.role === "system")?.content as string | undefined) ?? "";
const isJudge = (request: FakeRequest) => systemOf(request).startsWith("You grade answers");

describe("a model experiment", () => {
  it("runs every case with the task's settings, scores it and aggregates exact totals", async () => {
    const datasetId = await createDataset(t, t.tenant, [
      { input: "alpha", expected: "alpha" },
      { input: "beta", expected: "BETA" },
      { input: "gamma", expected: "gamma" },
      { input: "delta" },
      { input: "apple", expected: "apple" },
    ]);
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "echo",
      task: { type: "model", model: MODEL, system: "Repeat.", temperature: 0.3, maxOutputTokens: 50 },
      scorers: [{ type: "exact_match" }, { type: "contains", value: "P" }],
      concurrency: 2,
    });
    const done = await waitForEnd(t, t.tenant, created.id);
    expect(done).toMatchObject({ status: "completed", error: null, progress: { done: 5, errored: 0, total: 5 } });
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    const results = await allResults(t, t.tenant, created.id);
    expect(
      results.map((r) => [r.position, r.status, r.output, r.scores.map((s: { passed: boolean }) => s.passed)]),
    ).toEqual([
      [1, "completed", "alpha", [true, true]],
      [2, "completed", "beta", [false, false]],
      [3, "completed", "gamma", [true, false]],
      [4, "completed", "delta", [false, false]],
      [5, "completed", "apple", [true, true]],
    ]);
    const usage = results.reduce(
      (sum, r) => ({
        inputTokens: sum.inputTokens + r.usage.inputTokens,
        outputTokens: sum.outputTokens + r.usage.outputTokens,
      }),
      { inputTokens: 0, outputTokens: 0 },
    );
    expect(usage.outputTokens).toBe(5);
    expect(done.totals).toEqual({
      cases: 5,
      completed: 5,
      errored: 0,
      passRate: 0.4,
      scorers: [
        { type: "exact_match", meanScore: 0.6, passRate: 0.6 },
        { type: "contains", meanScore: 0.4, passRate: 0.4 },
      ],
      latencyMs: { p50: expect.any(Number), p95: expect.any(Number) },
      usage,
      judgeUsage: { inputTokens: 0, outputTokens: 0 },
      estimatedCostUsd: null,
    });
    const calls = fake.requests.filter((r) => r.path === "/v1/chat/completions");
    expect(calls).toHaveLength(5);
    for (const call of calls) {
      expect(call.body).toMatchObject({ temperature: 0.3, max_tokens: 50 });
      expect(systemOf(call)).toBe("Repeat.");
      expect(call.body.tools).toBeUndefined();
    }
  });

  it("keeps at most `concurrency` cases running, shows progress while running, and lists finished cases", async () => {
    const starts: number[] = [];
    fake.respondWith((request) => {
      starts.push(Date.now());
      return { text: lastUserText(request.body), delayMs: 300 };
    });
    const datasetId = await createDataset(
      t,
      t.tenant,
      Array.from({ length: 6 }, (_, i) => ({ input: `case ${i}` })),
    );
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "slow",
      task: { type: "model", model: MODEL },
      scorers: [{ type: "not_empty" }],
      concurrency: 2,
    });
    const midway = await waitUntil("a finished case while others run", async () => {
      const experiment = await getExperiment(t, t.tenant, created.id);
      return experiment.progress.done >= 1 && experiment.status === "running" ? experiment : undefined;
    });
    expect(midway.totals).toBeNull();
    const partial = await allResults(t, t.tenant, created.id);
    expect(partial.length).toBeGreaterThanOrEqual(1);
    expect(partial.length).toBeLessThan(6);
    await waitForEnd(t, t.tenant, created.id);
    // Each call answers after 300 ms: with two slots, no three calls can start within one answer's time.
    starts.sort((a, b) => a - b);
    for (let i = 2; i < starts.length; i++) expect(starts[i]! - starts[i - 2]!).toBeGreaterThanOrEqual(250);
    expect(starts).toHaveLength(6);
  });

  it("records a failing case as an error and still completes the experiment", async () => {
    fake.respondWith((request): FakeReply => {
      if (lastUserText(request.body) === "boom") {
        return {
          status: 400,
          body: { error: { message: "bad request for this case", type: "invalid_request_error" } },
        };
      }
      return { text: lastUserText(request.body) };
    });
    const datasetId = await createDataset(t, t.tenant, [{ input: "fine" }, { input: "boom" }]);
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "one fails",
      task: { type: "model", model: MODEL },
      scorers: [{ type: "not_empty" }],
    });
    const done = await waitForEnd(t, t.tenant, created.id);
    expect(done).toMatchObject({ status: "completed", progress: { done: 2, errored: 1 } });
    expect(done.totals).toMatchObject({ cases: 2, completed: 1, errored: 1, passRate: 0.5 });
    const [fine, boom] = await allResults(t, t.tenant, created.id);
    expect(fine).toMatchObject({ status: "completed", output: "fine", error: null });
    expect(boom).toMatchObject({ status: "error", output: null, scores: [] });
    expect(boom.error).toMatch(/^model call failed: .*bad request for this case/);
  });

  it("scores with a scripted llm_judge, and a verdict it cannot read is a case error", async () => {
    fake.respondWith((request): FakeReply => {
      if (!isJudge(request)) return { text: lastUserText(request.body) };
      const graded = lastUserText(request.body);
      if (graded.includes("Answer to grade:\ngood")) return { text: '{"score": 0.8, "reason": "close enough"}' };
      if (graded.includes("Answer to grade:\nbad")) return { text: '{"score": 0.1, "reason": "wrong"}' };
      return { text: "no idea" };
    });
    const datasetId = await createDataset(t, t.tenant, [{ input: "good" }, { input: "bad" }, { input: "odd" }]);
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "judged",
      task: { type: "model", model: MODEL },
      scorers: [{ type: "llm_judge", rubric: "Is it good?", model: MODEL }],
    });
    const done = await waitForEnd(t, t.tenant, created.id);
    const [good, bad, odd] = await allResults(t, t.tenant, created.id);
    expect(good.scores).toEqual([{ type: "llm_judge", score: 0.8, passed: true, reason: "close enough" }]);
    expect(bad.scores).toEqual([{ type: "llm_judge", score: 0.1, passed: false, reason: "wrong" }]);
    expect(odd).toMatchObject({ status: "error", output: "odd" });
    expect(odd.error).toMatch(/^llm_judge: the judge did not answer with JSON/);
    expect(done.totals).toMatchObject({
      completed: 2,
      errored: 1,
      scorers: [{ type: "llm_judge", meanScore: 0.45, passRate: 0.5 }],
    });
    expect(done.totals.judgeUsage.outputTokens).toBeGreaterThan(0);
    const judged = fake.requests.filter(isJudge);
    expect(judged).toHaveLength(3);
    expect(lastUserText(judged[0]!.body)).toContain("Is it good?");
  });

  it("compares with a baseline per scorer: a pass → fail on one scorer is a regression, listed first with both outputs", async () => {
    fake.respondWith((request) => {
      const text = lastUserText(request.body);
      return { text: systemOf(request) === "shout" ? text.toUpperCase() : text };
    });
    const datasetId = await createDataset(t, t.tenant, [
      { input: "Three", expected: "THREE" },
      { input: "one", expected: "one" },
      { input: "TWO", expected: "TWO" },
      { input: "four", expected: "FOUR" },
    ]);
    const scorers = [{ type: "exact_match" }, { type: "regex", pattern: "^[a-z]+$" }];
    const plain = await createExperiment(t, t.tenant, {
      datasetId,
      name: "plain",
      task: { type: "model", model: MODEL, system: "plain" },
      scorers,
    });
    const shout = await createExperiment(t, t.tenant, {
      datasetId,
      name: "shout",
      task: { type: "model", model: MODEL, system: "shout" },
      scorers,
    });
    await waitForEnd(t, t.tenant, plain.id);
    await waitForEnd(t, t.tenant, shout.id);
    const res = await t.http
      .get(`${t.tenant.base}/experiments/${shout.id}/compare?baseline=${plain.id}`)
      .set(t.tenant.auth);
    expect(res.status).toBe(200);
    const ids = Object.fromEntries((await allResults(t, t.tenant, plain.id)).map((r) => [r.input, r.caseId]));
    const verdict = (passed: boolean) => ({ passed, score: passed ? 1 : 0 });
    const side = (output: string) => ({
      status: "completed",
      output,
      error: null,
      latencyMs: expect.any(Number),
      sessionId: null,
    });
    expect(res.body).toEqual({
      experimentId: shout.id,
      baselineId: plain.id,
      datasetId,
      // Baseline: "one" passes both scorers; shout: none passes both.
      passRate: { experiment: 0, baseline: 0.25, delta: -0.25 },
      scorers: [
        {
          type: "exact_match",
          meanScore: { experiment: 0.75, baseline: 0.5, delta: 0.25 },
          passRate: { experiment: 0.75, baseline: 0.5, delta: 0.25 },
          regressions: 1,
          improvements: 2,
        },
        {
          type: "regex",
          meanScore: { experiment: 0, baseline: 0.5, delta: -0.5 },
          passRate: { experiment: 0, baseline: 0.5, delta: -0.5 },
          regressions: 2,
          improvements: 0,
        },
      ],
      // "four" failed exact_match in the baseline already: its regex regression counts all the same.
      regressions: [
        { caseId: ids.one, position: 2 },
        { caseId: ids.four, position: 4 },
      ],
      improvements: [{ caseId: ids.Three, position: 1 }],
      cases: [
        {
          caseId: ids.one,
          position: 2,
          change: "regression",
          input: "one",
          expected: "one",
          experiment: side("ONE"),
          baseline: side("one"),
          scorers: [
            {
              type: "exact_match",
              experiment: verdict(false),
              baseline: verdict(true),
              delta: -1,
              change: "regression",
            },
            { type: "regex", experiment: verdict(false), baseline: verdict(true), delta: -1, change: "regression" },
          ],
        },
        {
          caseId: ids.four,
          position: 4,
          change: "regression",
          input: "four",
          expected: "FOUR",
          experiment: side("FOUR"),
          baseline: side("four"),
          scorers: [
            {
              type: "exact_match",
              experiment: verdict(true),
              baseline: verdict(false),
              delta: 1,
              change: "improvement",
            },
            { type: "regex", experiment: verdict(false), baseline: verdict(true), delta: -1, change: "regression" },
          ],
        },
        {
          caseId: ids.Three,
          position: 1,
          change: "improvement",
          input: "Three",
          expected: "THREE",
          experiment: side("THREE"),
          baseline: side("Three"),
          scorers: [
            {
              type: "exact_match",
              experiment: verdict(true),
              baseline: verdict(false),
              delta: 1,
              change: "improvement",
            },
            { type: "regex", experiment: verdict(false), baseline: verdict(false), delta: 0, change: "unchanged" },
          ],
        },
      ],
    });
    const back = await t.http
      .get(`${t.tenant.base}/experiments/${plain.id}/compare?baseline=${shout.id}`)
      .set(t.tenant.auth);
    expect(back.body.regressions.map((r: { position: number }) => r.position)).toEqual([1, 4]);
    expect(back.body.improvements.map((r: { position: number }) => r.position)).toEqual([2]);
    // "four" is a regression both ways (exact_match one way, regex the other): mixed cases are never hidden.
    expect(back.body.cases.map((c: { position: number; change: string }) => [c.position, c.change])).toEqual([
      [1, "regression"],
      [4, "regression"],
      [2, "improvement"],
    ]);
  });
});

describe("an agent experiment", () => {
  it("runs each case as a real session of the frozen version; turn caps and missing operators are case errors", async () => {
    fake.respondWith((request): FakeReply => {
      const text = lastUserText(request.body);
      if (text === "ask the client") return { toolCalls: [{ name: "lookup", arguments: { q: "x" } }] };
      if (text === "keep going")
        return { toolCalls: [{ name: "artifact_write", arguments: { name: "n.md", content: "x" } }] };
      return { text: `answer to ${text}` };
    });
    const agent = await createAgent(t, t.tenant, {
      model: MODEL,
      system: "v1",
      tools: [
        "artifact_write",
        { type: "custom", name: "lookup", description: "Looks up", inputSchema: { type: "object", properties: {} } },
      ],
    });
    const datasetId = await createDataset(t, t.tenant, [
      { input: "hello", expected: "answer to hello" },
      { input: "ask the client" },
      { input: "keep going" },
    ]);
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "agent",
      task: { type: "agent", agentId: agent.id, maxTurns: 2 },
      scorers: [{ type: "exact_match" }],
    });
    expect(created.task.agentVersion).toBe(1);
    await updateAgent(t, t.tenant, agent.id, 1, { system: "v2" });
    const done = await waitForEnd(t, t.tenant, created.id);
    expect(done).toMatchObject({ status: "completed", progress: { done: 3, errored: 2 } });
    const [hello, client, loop] = await allResults(t, t.tenant, created.id);
    expect(hello).toMatchObject({ status: "completed", output: "answer to hello", scores: [{ passed: true }] });
    expect(client.status).toBe("error");
    expect(client.error).toContain('custom tool "lookup" needs a client to run it');
    expect(loop.status).toBe("error");
    expect(loop.error).toContain("turn cap: the agent reached maxTurns (2 model calls)");
    for (const result of [hello, client, loop]) {
      const session = await t.http.get(`${t.tenant.base}/sessions/${result.sessionId}`).set(t.tenant.auth);
      expect(session.body).toMatchObject({
        agent: { id: agent.id, version: 1 },
        metadata: { experimentId: created.id },
        status: "idle",
      });
    }
    // The frozen version's system prompt, not the later one.
    const systems = fake.requests.filter((r) => r.path === "/v1/chat/completions").map(systemOf);
    expect(systems.every((s) => s.startsWith("v1"))).toBe(true);
  });

  it("confines each case to read-only tools with confineReadonly", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["artifact_write", "web_fetch"] });
    const datasetId = await createDataset(t, t.tenant, [{ input: "hi" }]);
    const body = { datasetId, name: "ro", scorers: [{ type: "not_empty" }] };
    const toolsOf = async (confineReadonly: boolean) => {
      fake.reset();
      const created = await createExperiment(t, t.tenant, {
        ...body,
        task: { type: "agent", agentId: agent.id, confineReadonly },
      });
      await waitForEnd(t, t.tenant, created.id);
      // biome-ignore lint/suspicious/noExplicitAny: tools as the fake server received them
      return ((fake.requests[0]!.body.tools ?? []) as any[]).map((tool) => tool.function.name).sort();
    };
    expect(await toolsOf(false)).toEqual(["artifact_write", "web_fetch"]);
    expect(await toolsOf(true)).toEqual(["web_fetch"]);
  });

  it("interrupts a case past its timeoutMs and records a time cap error", async () => {
    fake.respondWith({ text: "too late", delayMs: 20_000 });
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const datasetId = await createDataset(t, t.tenant, [{ input: "slow" }]);
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "slow agent",
      task: { type: "agent", agentId: agent.id, timeoutMs: 1_000 },
      scorers: [{ type: "not_empty" }],
    });
    const done = await waitForEnd(t, t.tenant, created.id);
    expect(done).toMatchObject({ status: "completed", progress: { done: 1, errored: 1 } });
    const [slow] = await allResults(t, t.tenant, created.id);
    expect(slow.error).toBe("time cap: the case ran past timeoutMs (1000 ms) and was interrupted");
    const log = await t.http.get(`${t.tenant.base}/sessions/${slow.sessionId}/events?limit=100`).set(t.tenant.auth);
    const types = log.body.data.map((e: { type: string }) => e.type);
    expect(types).toContain("user.interrupt");
    expect(log.body.data.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "interrupted" });
  });
});
