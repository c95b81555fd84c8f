import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { allResults, createAgent, createDataset, createExperiment, waitForEnd } from "./helpers.js";

// An experiment's estimated cost comes from the same pricing as its sessions' usage entries.
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

describe("experiment cost", () => {
  it("totals equal the sum of the cost of the calls of its cases' sessions", async () => {
    const pricing = { input: 2.5, output: 7, cachedInputRead: 1 };
    const agent = await createAgent(t, t.tenant, { model: { id: "openai-compatible/fake-model", pricing } });
    fake.reset();
    fake.respondWith((request) => ({
      text: "answer",
      usage: { promptTokens: 100 + request.body.messages.length, completionTokens: 7 },
    }));
    const datasetId = await createDataset(t, t.tenant, [{ input: "a" }, { input: "b" }, { input: "c" }]);
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "priced",
      task: { type: "agent", agentId: agent.id },
      scorers: [{ type: "not_empty" }],
    });
    const done = await waitForEnd(t, t.tenant, created.id);
    fake.respondWith(undefined);
    expect(done.status).toBe("completed");
    let micro = 0;
    let sessionsMicro = 0;
    for (const result of await allResults(t, t.tenant, created.id)) {
      const log = await t.http.get(`${t.tenant.base}/sessions/${result.sessionId}/events?limit=100`).set(t.tenant.auth);
      const entries = log.body.data.filter((e: { type: string }) => e.type === "agent.usage");
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) {
        expect(entry.costUsd).toBe(Math.round(entry.inputTokens * 2.5 + entry.outputTokens * 7) / 1e6);
        micro += Math.round(entry.costUsd * 1e6);
      }
      const session = await t.http.get(`${t.tenant.base}/sessions/${result.sessionId}`).set(t.tenant.auth);
      sessionsMicro += Math.round(session.body.usage.costUsd * 1e6);
    }
    expect(micro).toBeGreaterThan(0);
    expect(sessionsMicro).toBe(micro);
    expect(done.totals.estimatedCostUsd).toBeCloseTo(micro / 1e6, 9);
  }, 60_000);
});
