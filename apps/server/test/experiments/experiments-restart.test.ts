import { describe, expect, it } from "vitest";
import { apiAndWorkers } from "../support/api-and-workers.js";
import { lastUserText } from "../support/fake-openai.js";
import { allResults, createDataset, createExperiment, waitForEnd, waitUntil } from "./helpers.js";

const world = apiAndWorkers();
const startWorker = () => world.startWorker({ WORKER_LEASE_MS: "2000" });

describe("an experiment across a worker crash", () => {
  it("resumes on another worker and records every case once", async () => {
    const { t, fake } = world;
    fake.respondWith((request) => ({ text: lastUserText(request.body), delayMs: 60_000 }));
    const datasetId = await createDataset(
      t,
      t.tenant,
      Array.from({ length: 4 }, (_, i) => ({ input: `case ${i + 1}`, expected: `case ${i + 1}` })),
    );
    const first = await startWorker();
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "crash",
      task: { type: "model", model: "openai-compatible/fake-model" },
      scorers: [{ type: "exact_match" }],
      concurrency: 2,
    });
    await waitUntil(
      "two cases waiting on the model",
      async () => (fake.requests.length >= 2 ? true : undefined),
      30_000,
    );
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));

    // The dead worker's leases (WORKER_LEASE_MS, 2 s here, as for every job kind) expire, and the next worker takes
    // its cases over: well within the wait below (the 30 s default would not be).
    fake.respondWith(undefined);
    await startWorker();
    const done = await waitForEnd(t, t.tenant, created.id, 15_000);
    expect(done).toMatchObject({ status: "completed", progress: { done: 4, errored: 0, total: 4 } });
    expect(done.totals).toMatchObject({ cases: 4, completed: 4, passRate: 1 });
    const results = await allResults(t, t.tenant, created.id);
    expect(results.map((r) => [r.position, r.status, r.output])).toEqual([
      [1, "completed", "case 1"],
      [2, "completed", "case 2"],
      [3, "completed", "case 3"],
      [4, "completed", "case 4"],
    ]);
    // The two cases cut short were asked again; each case is still recorded and scored once.
    expect(fake.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(6);
    const { rows } = await t.platform.ctx.db.pool.query(
      `SELECT count(*)::int AS n FROM jobs WHERE "kind" = 'experiment.case'`,
    );
    expect(rows[0].n).toBe(0);
  });
});
