import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession } from "./helpers.js";
import { getSession, waitForIdle } from "./loop-helpers.js";

// An OpenAI-compatible server's cached and reasoning tokens (`prompt_tokens_details.cached_tokens`,
// `completion_tokens_details.reasoning_tokens`) reach the usage entry and are priced as OpenAI prices them.
let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({
    role: "all",
    env: {
      OPENAI_COMPATIBLE_BASE_URL: fake.url,
      MODEL_CATALOGUE: JSON.stringify({ "openai-compatible/fake-reasoner": { capabilities: { reasoning: true } } }),
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("usage from an OpenAI-compatible server", () => {
  it("records cached and reasoning tokens and prices cached input at the cache-read price", async () => {
    const pricing = { input: 2, output: 8, cachedInputRead: 0.5 };
    const agent = await createAgent(t, t.tenant, { model: { id: "openai-compatible/fake-model", pricing } });
    fake.reset();
    fake.enqueue({
      text: "thought it through",
      usage: { promptTokens: 2_000, completionTokens: 50, cachedTokens: 1_536, reasoningTokens: 20 },
    });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("think")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(log.find((e) => e.type === "agent.usage")).toMatchObject({
      inputTokens: 2_000,
      outputTokens: 50,
      cacheReadInputTokens: 1_536,
      cacheWriteInputTokens: 0,
      reasoningTokens: 20,
      // 464 uncached × $2 + 1,536 cached × $0.50 + 50 output (reasoning included) × $8, per million.
      costUsd: 0.002096,
    });
    expect(fake.requests.at(-1)?.body.reasoning_effort).toBeUndefined();
    expect((await getSession(t, t.tenant, session.id)).usage).toEqual({
      inputTokens: 2_000,
      outputTokens: 50,
      cacheReadInputTokens: 1_536,
      cacheWriteInputTokens: 0,
      reasoningTokens: 20,
      costUsd: 0.002096,
    });
  });

  it("sends a reasoning effort as `reasoning_effort` to a model the catalogue says can reason", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: { id: "openai-compatible/fake-reasoner", reasoning: { effort: "high" } },
    });
    fake.reset();
    fake.enqueue({ text: "done", usage: { promptTokens: 10, completionTokens: 30, reasoningTokens: 25 } });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("think hard")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(fake.requests.at(-1)?.body.reasoning_effort).toBe("high");
    expect(log.find((e) => e.type === "agent.usage")).toMatchObject({ reasoningTokens: 25, costUsd: null });
    const refused = await t.http
      .post(`${t.tenant.base}/agents`)
      .set(t.tenant.auth)
      .send({ name: "x", model: { id: "openai-compatible/fake-model", reasoning: { effort: "low" } } });
    expect(refused.status).toBe(422);
  });
});
