import { ApiError, paginate } from "@agent-platform/sdk";
import { createClient } from "@agent-platform/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { waitUntil } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: "all" });
});
afterAll(async () => {
  await t?.close();
});

describe("experiments through the SDK", () => {
  it("creates an experiment, waits for its totals, reads its results and compares it with a baseline", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const projectId = t.tenant.projectId;
    const dataset = await client.datasets.create({
      params: { projectId },
      body: {
        name: "capitals",
        cases: [
          { input: "Paris", expected: "Paris" },
          { input: "Rome", expected: "Roma" },
        ],
      },
    });
    const body = {
      datasetId: dataset.id,
      name: "echo",
      task: { type: "model" as const, model: "builtin/echo" },
      scorers: [{ type: "exact_match" as const }],
    };
    const baseline = await client.experiments.create({ params: { projectId }, body });
    const experiment = await client.experiments.create({ params: { projectId }, body: { ...body, name: "again" } });
    expect(experiment.status).toBe("pending");
    const done = await waitUntil("the experiment to complete", async () => {
      const current = await client.experiments.get({ params: { projectId, id: experiment.id } });
      return current.status === "completed" ? current : undefined;
    });
    expect(done.totals).toMatchObject({ cases: 2, completed: 2, passRate: 0.5 });
    const outputs: (string | null)[] = [];
    for await (const result of paginate(client.experiments.results, { params: { projectId, id: experiment.id } })) {
      outputs.push(result.output);
    }
    expect(outputs).toEqual(["Paris", "Rome"]);
    await waitUntil("the baseline to complete", async () => {
      const current = await client.experiments.get({ params: { projectId, id: baseline.id } });
      return current.status === "completed" ? current : undefined;
    });
    const comparison = await client.experiments.compare({
      params: { projectId, id: experiment.id },
      query: { baseline: baseline.id },
    });
    expect(comparison).toMatchObject({ passRate: { delta: 0 }, regressions: [], improvements: [] });
    const missing = await client.experiments
      .get({ params: { projectId, id: "exp_missing" } })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).code).toBe("experiment.not_found");
  });
});
