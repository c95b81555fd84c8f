import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, newSession, postSession } from "../sessions/helpers.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectError, expectInvalid } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function createEnvironment(body: Record<string, unknown>) {
  const res = await t.http.post(`${t.tenant.base}/environments`).set(t.tenant.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function patch(id: string, body: unknown, auth = t.tenant.auth, base = t.tenant.base) {
  return t.http
    .patch(`${base}/environments/${id}`)
    .set(auth)
    .send(body as object);
}

describe("PATCH /v1/projects/:projectId/environments/:id", () => {
  it("edits name, description and variables; only the fields present change", async () => {
    const env = await createEnvironment({ name: "staging", description: "Old", variables: { REGION: "eu-west-1" } });

    const renamed = await patch(env.id, { name: "  staging-2  " });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toEqual({
      ...env,
      name: "staging-2",
      updatedAt: expect.any(String),
    });
    expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(env.updatedAt));

    const configured = await patch(env.id, { variables: { REGION: "us-east-1", DEBUG: "1" }, description: null });
    expect(configured.status).toBe(200);
    expect(configured.body).toMatchObject({
      name: "staging-2",
      description: null,
      variables: { REGION: "us-east-1", DEBUG: "1" },
    });

    const cleared = await patch(env.id, { variables: {}, description: "New" });
    expect(cleared.body).toMatchObject({ name: "staging-2", description: "New", variables: {} });

    const unchanged = await patch(env.id, {});
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(cleared.body);

    const got = await t.http.get(`${t.tenant.base}/environments/${env.id}`).set(t.tenant.auth);
    expect(got.body).toEqual(cleared.body);
  });

  it("edits the project's default environment, which stays the default", async () => {
    const res = await patch(t.tenant.defaultEnvironmentId, { variables: { TIER: "base" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: t.tenant.defaultEnvironmentId, isDefault: true, variables: { TIER: "base" } });
  });

  it("validates like create, with field paths, and writes nothing", async () => {
    const env = await createEnvironment({ name: "strict", variables: { A: "1" } });
    expectInvalid(await patch(env.id, { name: "", variables: { "bad key": "x", OK: 5 }, extra: true }), [
      "body.name",
      "body.variables.bad key",
      "body.variables.OK",
      "body",
    ]);
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`V${i}`, "x"]));
    expectInvalid(await patch(env.id, { variables: tooMany }), ["body.variables"]);
    expectInvalid(await patch(env.id, { name: "x".repeat(201) }), ["body.name"]);
    expectInvalid(await patch(env.id, { description: "d".repeat(2001) }), ["body.description"]);
    expectInvalid(await patch(env.id, { variables: { BIG: "x".repeat(8 * 1024 + 1) } }), ["body.variables.BIG"]);
    expectInvalid(await patch(env.id, { name: null }), ["body.name"]);
    const got = await t.http.get(`${t.tenant.base}/environments/${env.id}`).set(t.tenant.auth);
    expect(got.body).toEqual(env);
  });

  it("refuses to edit an archived environment with 409 environment.archived", async () => {
    const env = await createEnvironment({ name: "retired" });
    const archived = await t.http.post(`${t.tenant.base}/environments/${env.id}/archive`).set(t.tenant.auth);
    expect(archived.status).toBe(200);
    expectError(await patch(env.id, { name: "revived" }), 409, "environment.archived");
    expectError(await patch(env.id, {}), 409, "environment.archived");
    const got = await t.http.get(`${t.tenant.base}/environments/${env.id}`).set(t.tenant.auth);
    expect(got.body).toEqual(archived.body);
  });

  it("leaves sessions with the environment they resolved at creation", async () => {
    const env = await createEnvironment({ name: "pinned", variables: { MODE: "a" } });
    const agent = await createAgent(t, t.tenant, { defaults: { environmentId: env.id } });
    const fromDefaults = await newSession(t, t.tenant, { agent: agent.id });
    const explicit = await newSession(t, t.tenant, { agent: agent.id, environmentId: env.id });
    const projectDefault = await newSession(t, t.tenant, { agent: agent.id, environmentId: null });
    expect([fromDefaults.environmentId, explicit.environmentId, projectDefault.environmentId]).toEqual([
      env.id,
      env.id,
      t.tenant.defaultEnvironmentId,
    ]);

    expect((await patch(env.id, { name: "pinned-renamed", variables: { MODE: "b" } })).status).toBe(200);
    expect((await patch(t.tenant.defaultEnvironmentId, { name: "base-renamed" })).status).toBe(200);
    for (const session of [fromDefaults, explicit, projectDefault]) {
      const got = await t.http.get(`${t.tenant.base}/sessions/${session.id}`).set(t.tenant.auth);
      expect(got.body).toEqual(session);
    }
    // a new session still resolves the same environment: an edit is not a new environment
    expect((await newSession(t, t.tenant, { agent: agent.id })).environmentId).toBe(env.id);

    // archived since: existing sessions keep it, new ones through the agent's defaults are refused
    await t.http.post(`${t.tenant.base}/environments/${env.id}/archive`).set(t.tenant.auth);
    const got = await t.http.get(`${t.tenant.base}/sessions/${fromDefaults.id}`).set(t.tenant.auth);
    expect(got.body.environmentId).toBe(env.id);
    expectError(await postSession(t, t.tenant, { agent: agent.id }), 422, "session.environment_not_found");
  });

  it("answers 404 environment.not_found for an unknown id and another project's environment", async () => {
    expectError(await patch("env_00000000000000000000000000", { name: "x" }), 404, "environment.not_found");
    const other = await t.newTenant();
    expectError(await patch(other.defaultEnvironmentId, { name: "x" }), 404, "environment.not_found");
    const theirs = await t.http.get(`${other.base}/environments/${other.defaultEnvironmentId}`).set(other.auth);
    expect(theirs.body.name).not.toBe("x");
  });

  it("answers 401 without a key or with a bad key, and 404 to another project's key", async () => {
    const env = await createEnvironment({ name: "guarded" });
    const noKey = await t.http.patch(`${t.tenant.base}/environments/${env.id}`).send({ name: "x" });
    expectError(noKey, 401, "auth.unauthorized");
    expectError(await patch(env.id, { name: "x" }, { Authorization: "Bearer ap_wrong" }), 401, "auth.unauthorized");
    const other = await t.newTenant();
    expectError(await patch(env.id, { name: "x" }, other.auth), 404, "project.not_found");
    const got = await t.http.get(`${t.tenant.base}/environments/${env.id}`).set(t.tenant.auth);
    expect(got.body.name).toBe("guarded");
  });
});
