import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  createAgent,
  createDataset,
  createExperiment,
  expectError,
  expectInvalid,
  getExperiment,
  postExperiment,
} from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  // API only: experiments stay pending, so what creation stored can be read as it is.
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const MODEL_TASK = { type: "model", model: "builtin/echo" };
const SCORERS = [{ type: "not_empty" }];

describe("creating an experiment", () => {
  it("answers 201 pending with caseCount, null totals, defaults and the frozen agent version", async () => {
    const datasetId = await createDataset(t, t.tenant, [{ input: "a" }, { input: "b", expected: "b" }]);
    const agent = await createAgent(t, t.tenant);
    const created = await createExperiment(t, t.tenant, {
      datasetId,
      name: "Echo baseline",
      task: { type: "agent", agentId: agent.id },
      scorers: [{ type: "exact_match" }, { type: "contains", value: "b" }],
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^exp_[0-9a-z]{26}$/),
      projectId: t.tenant.projectId,
      datasetId,
      name: "Echo baseline",
      task: {
        type: "agent",
        agentId: agent.id,
        agentVersion: 1,
        maxTurns: 12,
        timeoutMs: 600_000,
        confineReadonly: false,
      },
      scorers: [{ type: "exact_match" }, { type: "contains", value: "b" }],
      concurrency: 4,
      status: "pending",
      caseCount: 2,
      progress: { done: 0, errored: 0, total: 2 },
      totals: null,
      error: null,
      createdAt: expect.any(String),
      startedAt: null,
      finishedAt: null,
    });
    expect(await getExperiment(t, t.tenant, created.id)).toEqual(created);
  });

  it("validates scorers: 1 to 8, distinct types, their fields, RE2 patterns", async () => {
    const datasetId = await createDataset(t, t.tenant, [{ input: "a" }]);
    const body = { datasetId, name: "x", task: MODEL_TASK };
    expectInvalid(await postExperiment(t, t.tenant, { ...body, scorers: [] }), ["body.scorers"]);
    expectInvalid(
      await postExperiment(t, t.tenant, { ...body, scorers: [{ type: "not_empty" }, { type: "not_empty" }] }),
      ["body.scorers.1.type"],
    );
    expectInvalid(await postExperiment(t, t.tenant, { ...body, scorers: [{ type: "contains" }] }), [
      "body.scorers.0.value",
    ]);
    expectInvalid(await postExperiment(t, t.tenant, { ...body, scorers: [{ type: "bleu" }] }), ["body.scorers.0.type"]);
    expectInvalid(await postExperiment(t, t.tenant, { ...body, scorers: [{ type: "regex", pattern: "(a" }] }), [
      "body.scorers.0.pattern",
    ]);
    const lookahead = await postExperiment(t, t.tenant, { ...body, scorers: [{ type: "regex", pattern: "a(?=b)" }] });
    expectInvalid(lookahead, ["body.scorers.0.pattern"]);
    expect(lookahead.body.error.message).toMatch(/unsupported/);
    expectInvalid(
      await postExperiment(t, t.tenant, { ...body, scorers: [{ type: "regex", pattern: "a", flags: "g" }] }),
      ["body.scorers.0.flags"],
    );
  });

  it("validates the task: discriminated on type, agent caps, model form", async () => {
    const datasetId = await createDataset(t, t.tenant, [{ input: "a" }]);
    const agent = await createAgent(t, t.tenant);
    const post = (task: unknown) => postExperiment(t, t.tenant, { datasetId, name: "x", task, scorers: SCORERS });
    expectInvalid(await post({ type: "human" }), ["body.task.type"]);
    expectInvalid(await post({ type: "agent", agentId: agent.id, maxTurns: 51 }), ["body.task.maxTurns"]);
    expectInvalid(await post({ type: "agent", agentId: agent.id, timeoutMs: 1_800_001 }), ["body.task.timeoutMs"]);
    expectInvalid(await post({ type: "model", model: "gpt" }), ["body.task.model"]);
    expectInvalid(await post({ type: "model", model: "builtin/echo", tools: [] }), ["body.task"]);
    expectError(await post({ type: "model", model: "builtin/parrot" }), 422, "experiment.invalid_model");
    expectError(await post({ type: "model", model: "anthropic/claude-sonnet-4-5" }), 422, "experiment.invalid_model");
  });

  it("refuses a missing, archived or unknown-version agent at once", async () => {
    const datasetId = await createDataset(t, t.tenant, [{ input: "a" }]);
    const post = (task: unknown) => postExperiment(t, t.tenant, { datasetId, name: "x", task, scorers: SCORERS });
    expectError(await post({ type: "agent", agentId: "agent_missing" }), 404, "agent.not_found");
    const agent = await createAgent(t, t.tenant);
    expectError(await post({ type: "agent", agentId: agent.id, agentVersion: 7 }), 404, "agent.version_not_found");
    await t.http.post(`${t.tenant.base}/agents/${agent.id}/archive`).set(t.tenant.auth).send({});
    expectError(await post({ type: "agent", agentId: agent.id }), 409, "agent.archived");
  });

  it("refuses an empty dataset, a missing one, and an agent task over 200 cases (model tasks have no ceiling)", async () => {
    const empty = await createDataset(t, t.tenant, []);
    const agent = await createAgent(t, t.tenant);
    const agentTask = { type: "agent", agentId: agent.id };
    expectError(
      await postExperiment(t, t.tenant, { datasetId: empty, name: "x", task: MODEL_TASK, scorers: SCORERS }),
      400,
      "experiment.empty_dataset",
    );
    expectError(
      await postExperiment(t, t.tenant, { datasetId: "ds_missing", name: "x", task: MODEL_TASK, scorers: SCORERS }),
      404,
      "dataset.not_found",
    );
    const big = await createDataset(
      t,
      t.tenant,
      Array.from({ length: 201 }, (_, i) => ({ input: `case ${i}` })),
    );
    const tooMany = await postExperiment(t, t.tenant, { datasetId: big, name: "x", task: agentTask, scorers: SCORERS });
    expectError(tooMany, 400, "experiment.too_many_cases");
    expect(tooMany.body.error.message).toContain("200");
    expect(tooMany.body.error.message).toContain("201");
    const model = await createExperiment(t, t.tenant, {
      datasetId: big,
      name: "x",
      task: MODEL_TASK,
      scorers: SCORERS,
    });
    expect(model.caseCount).toBe(201);
    const list = await t.http.get(`${t.tenant.base}/experiments?datasetId=${empty}`).set(t.tenant.auth);
    expect(list.body.data).toEqual([]);
  });

  it("refuses an agent experiment over an exhausted blocking budget with 403 budget.exceeded and details", async () => {
    const tenant = await t.newTenant();
    const datasetId = await createDataset(t, tenant, [{ input: "a" }]);
    const agent = await createAgent(t, tenant);
    const budget = await t.http
      .post("/v1/budgets")
      .set(tenant.auth)
      .send({ scope: "agent", agentId: agent.id, meter: "sessions", limit: 1, action: "block" });
    expect(budget.status).toBe(201);
    const session = await t.http.post(`${tenant.base}/sessions`).set(tenant.auth).send({ agent: agent.id });
    expect(session.status).toBe(201);
    const res = await postExperiment(t, tenant, {
      datasetId,
      name: "x",
      task: { type: "agent", agentId: agent.id },
      scorers: SCORERS,
    });
    expectError(res, 403, "budget.exceeded");
    expect(res.body.error.details).toEqual({ scope: "agent", meter: "sessions", limit: 1, used: 1 });
  });
});

describe("reading experiments", () => {
  it("lists newest first with a dataset filter and cursors bound to it", async () => {
    const tenant = await t.newTenant();
    const first = await createDataset(t, tenant, [{ input: "a" }]);
    const second = await createDataset(t, tenant, [{ input: "b" }]);
    const ids: string[] = [];
    for (const datasetId of [first, second, first]) {
      ids.push((await createExperiment(t, tenant, { datasetId, name: "x", task: MODEL_TASK, scorers: SCORERS })).id);
    }
    const all = await t.http.get(`${tenant.base}/experiments?limit=2`).set(tenant.auth);
    expect(all.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(all.body.hasMore).toBe(true);
    const rest = await t.http.get(`${tenant.base}/experiments?limit=2&cursor=${all.body.nextCursor}`).set(tenant.auth);
    expect(rest.body).toMatchObject({ data: [{ id: ids[0] }], hasMore: false, nextCursor: null });
    const filtered = await t.http.get(`${tenant.base}/experiments?datasetId=${first}`).set(tenant.auth);
    expect(filtered.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[0]]);
    const mixed = await t.http
      .get(`${tenant.base}/experiments?datasetId=${second}&cursor=${all.body.nextCursor}`)
      .set(tenant.auth);
    expectInvalid(mixed, ["query.cursor"]);
    const results = await t.http.get(`${tenant.base}/experiments/${ids[0]}/results`).set(tenant.auth);
    expect(results.body).toEqual({ data: [], hasMore: false, nextCursor: null });
  });

  it("answers 404 experiment.not_found for a missing experiment and for another project's", async () => {
    const datasetId = await createDataset(t, t.tenant, [{ input: "a" }]);
    const mine = await createExperiment(t, t.tenant, { datasetId, name: "x", task: MODEL_TASK, scorers: SCORERS });
    const other = await t.newTenant();
    for (const path of ["", "/results", `/compare?baseline=${mine.id}`]) {
      expectError(
        await t.http.get(`${t.tenant.base}/experiments/exp_missing${path}`).set(t.tenant.auth),
        404,
        "experiment.not_found",
      );
      expectError(
        await t.http.get(`${t.tenant.base}/experiments/${mine.id}${path}`).set(other.auth),
        404,
        "experiment.not_found",
      );
    }
    expectError(await t.http.get(`${t.tenant.base}/experiments`).set(other.auth), 404, "project.not_found");
    expectError(await t.http.get(`${t.tenant.base}/experiments/${mine.id}`), 401, "auth.unauthorized");
  });

  it("compares only experiments of one dataset (422 experiment.not_comparable)", async () => {
    const a = await createDataset(t, t.tenant, [{ input: "a" }]);
    const b = await createDataset(t, t.tenant, [{ input: "b" }]);
    const one = await createExperiment(t, t.tenant, { datasetId: a, name: "x", task: MODEL_TASK, scorers: SCORERS });
    const two = await createExperiment(t, t.tenant, { datasetId: b, name: "y", task: MODEL_TASK, scorers: SCORERS });
    expectError(
      await t.http.get(`${t.tenant.base}/experiments/${one.id}/compare?baseline=${two.id}`).set(t.tenant.auth),
      422,
      "experiment.not_comparable",
    );
    expectError(
      await t.http.get(`${t.tenant.base}/experiments/${one.id}/compare?baseline=exp_gone`).set(t.tenant.auth),
      404,
      "experiment.not_found",
    );
  });
});
