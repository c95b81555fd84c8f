import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findEnvironment } from "../../src/environments/environments-service.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectEachOnceNewestFirst, expectError, expectInvalid, walkPages } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("environments", () => {
  it("creates, gets and lists an environment with its variables", async () => {
    const created = await t.http
      .post(`${t.tenant.base}/environments`)
      .set(t.tenant.auth)
      .send({ name: "staging", description: "Staging config", variables: { REGION: "eu-west-1", LOG_LEVEL: "debug" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^env_[0-9a-z]{26}$/),
      projectId: t.tenant.projectId,
      name: "staging",
      description: "Staging config",
      variables: { REGION: "eu-west-1", LOG_LEVEL: "debug" },
      networking: { type: "none" },
      packages: { npm: [], pip: [] },
      secrets: {},
      resources: { memoryMb: 512, cpus: 1, pids: 128, timeoutMs: 30000, workspaceMb: 256 },
      isDefault: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
      archivedAt: null,
    });
    const got = await t.http.get(`${t.tenant.base}/environments/${created.body.id}`).set(t.tenant.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const list = await t.http.get(`${t.tenant.base}/environments`).set(t.tenant.auth);
    expect(list.status).toBe(200);
    const ids = list.body.data.map((e: { id: string }) => e.id);
    expect(ids).toContain(created.body.id);
    expect(ids).toContain(t.tenant.defaultEnvironmentId);
  });

  it("shows the project's default environment as an ordinary environment", async () => {
    const res = await t.http.get(`${t.tenant.base}/environments/${t.tenant.defaultEnvironmentId}`).set(t.tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: t.tenant.defaultEnvironmentId, isDefault: true, archivedAt: null });
  });

  it("refuses to archive the default environment with 409 environment.is_default", async () => {
    const res = await t.http
      .post(`${t.tenant.base}/environments/${t.tenant.defaultEnvironmentId}/archive`)
      .set(t.tenant.auth);
    expectError(res, 409, "environment.is_default");
    const after = await t.http.get(`${t.tenant.base}/environments/${t.tenant.defaultEnvironmentId}`).set(t.tenant.auth);
    expect(after.body.archivedAt).toBeNull();
  });

  it("archives an environment idempotently and filters lists by status", async () => {
    const env = (await t.http.post(`${t.tenant.base}/environments`).set(t.tenant.auth).send({ name: "old" })).body;
    const archived = await t.http.post(`${t.tenant.base}/environments/${env.id}/archive`).set(t.tenant.auth);
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).toEqual(expect.any(String));
    const again = await t.http.post(`${t.tenant.base}/environments/${env.id}/archive`).set(t.tenant.auth);
    expect(again.status).toBe(200);
    expect(again.body.archivedAt).toBe(archived.body.archivedAt);

    const ids = async (status: string) =>
      (await t.http.get(`${t.tenant.base}/environments?status=${status}&limit=100`).set(t.tenant.auth)).body.data.map(
        (e: { id: string }) => e.id,
      );
    expect(await ids("active")).not.toContain(env.id);
    expect(await ids("archived")).toEqual([env.id]);
    expect(await ids("all")).toContain(env.id);

    const prisma = t.platform.ctx.db.prisma;
    expect(await findEnvironment(prisma, t.tenant.projectId, env.id)).toMatchObject({ archivedAt: expect.any(Date) });
    expect(await findEnvironment(prisma, t.tenant.projectId, t.tenant.defaultEnvironmentId)).toEqual({
      id: t.tenant.defaultEnvironmentId,
      archivedAt: null,
    });
    expect(await findEnvironment(prisma, (await t.newTenant()).projectId, env.id)).toBeNull();
  });

  it("walks every page exactly once, and refuses a cursor reused with another filter", async () => {
    const tenant = await t.newTenant();
    const created = [tenant.defaultEnvironmentId];
    for (let i = 0; i < 6; i++) {
      const res = await t.http
        .post(`${tenant.base}/environments`)
        .set(tenant.auth)
        .send({ name: `env-${i}` });
      created.push(res.body.id);
    }
    const { items, cursors } = await walkPages(t.http, tenant.auth, `${tenant.base}/environments?status=all`, 3);
    expectEachOnceNewestFirst(
      items.map((e) => e.id),
      created,
    );
    const reused = await t.http.get(`${tenant.base}/environments?status=active&cursor=${cursors[0]}`).set(tenant.auth);
    expectInvalid(reused, ["query.cursor"]);
  });

  it("validates the body with field paths", async () => {
    const res = await t.http
      .post(`${t.tenant.base}/environments`)
      .set(t.tenant.auth)
      .send({ name: "", variables: { "bad key": "x", OK: 5 }, extra: true });
    expectInvalid(res, ["body.name", "body.variables.bad key", "body.variables.OK", "body"]);
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`V${i}`, "x"]));
    expectInvalid(
      await t.http.post(`${t.tenant.base}/environments`).set(t.tenant.auth).send({ name: "n", variables: tooMany }),
      ["body.variables"],
    );
  });

  it("answers 404 environment.not_found for an unknown id and for another project's environment", async () => {
    expectError(
      await t.http.get(`${t.tenant.base}/environments/env_00000000000000000000000000`).set(t.tenant.auth),
      404,
      "environment.not_found",
    );
    const other = await t.newTenant();
    expectError(
      await t.http.get(`${t.tenant.base}/environments/${other.defaultEnvironmentId}`).set(t.tenant.auth),
      404,
      "environment.not_found",
    );
    expectError(
      await t.http.post(`${t.tenant.base}/environments/${other.defaultEnvironmentId}/archive`).set(t.tenant.auth),
      404,
      "environment.not_found",
    );
  });

  it("answers 404 to another project's key on this project's routes", async () => {
    const other = await t.newTenant();
    expectError(await t.http.get(`${t.tenant.base}/environments`).set(other.auth), 404, "project.not_found");
    expectError(
      await t.http.get(`${t.tenant.base}/environments/${t.tenant.defaultEnvironmentId}`).set(other.auth),
      404,
      "project.not_found",
    );
    expectError(
      await t.http.post(`${t.tenant.base}/environments`).set(other.auth).send({ name: "x" }),
      404,
      "project.not_found",
    );
  });
});
