import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { allResults, createAgent, createExperiment, waitForEnd } from "./helpers.js";

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

// biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
const chatMessages = (request: FakeRequest) => (request.body.messages as any[]).filter((m) => m.role !== "system");

describe("an agent experiment with a multi-turn case and run scorers", () => {
  it("starts the case from its conversation and scores the tool calls, with metrics per case and in totals", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["artifact_write"] });
    const dataset = await t.http
      .post(`${t.tenant.base}/datasets`)
      .set(t.tenant.auth)
      .send({
        name: "multi-turn",
        cases: [
          {
            conversation: [
              { role: "user", text: "We are writing the weekly report." },
              { role: "assistant", text: "Ready when you are." },
            ],
            input: "Save it as report.md",
            expected: "Saved.",
            expectedTools: [{ name: "artifact_write", arguments: { name: "report.md" } }],
          },
          { input: "Save nothing", expectedTools: [{ name: "artifact_write" }] },
        ],
      });
    expect(dataset.status, JSON.stringify(dataset.body)).toBe(201);
    fake.respondWith((request) =>
      chatMessages(request).at(-1)?.role === "tool"
        ? { text: "Saved." }
        : String(chatMessages(request).at(-1)?.content).includes("report.md")
          ? { toolCalls: [{ name: "artifact_write", arguments: { name: "report.md", content: "# Weekly" } }] }
          : { text: "Nothing to save." },
    );
    const created = await createExperiment(t, t.tenant, {
      datasetId: dataset.body.id,
      name: "trajectory",
      task: { type: "agent", agentId: agent.id },
      scorers: [
        { type: "trajectory", mode: "exact" },
        { type: "call_count", of: "model_calls", max: 2 },
        { type: "cost", maxUsd: 1 },
        { type: "latency", maxMs: 600_000 },
      ],
      concurrency: 1,
    });
    const done = await waitForEnd(t, t.tenant, created.id);
    expect(done.status).toBe("completed");

    const first = fake.requests.find((r) => r.path === "/v1/chat/completions")!;
    expect(chatMessages(first)).toEqual([
      { role: "user", content: "We are writing the weekly report." },
      { role: "assistant", content: "Ready when you are." },
      { role: "user", content: "Save it as report.md" },
    ]);

    const [multi, single] = await allResults(t, t.tenant, created.id);
    expect(multi).toMatchObject({ status: "completed", output: "Saved." });
    expect(multi.scores[0]).toEqual({
      type: "trajectory",
      score: 1,
      passed: true,
      reason: null,
      trajectory: { precision: 1, recall: 1, f1: 1 },
    });
    expect(multi.scores.slice(1).map((s: { passed: boolean }) => s.passed)).toEqual([true, false, true]);
    expect(multi.scores[2].reason).toBe("the cost is unknown: a model's price is not known");
    expect(single.scores[0]).toMatchObject({
      passed: false,
      score: 0,
      reason: "missing artifact_write",
      trajectory: { precision: 0, recall: 0, f1: 0 },
    });
    expect(single.scores[1]).toMatchObject({ type: "call_count", passed: true });

    const trajectory = done.totals.scorers.find((s: { type: string }) => s.type === "trajectory");
    expect(trajectory).toEqual({
      type: "trajectory",
      meanScore: 0.5,
      passRate: 0.5,
      trajectory: { precision: 0.5, recall: 0.5, f1: 0.5 },
    });
  });
});
