import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { areaOf } from "../../src/http/api-dispatch.js";
import { expectError } from "../support/expect-error.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

describe("areaOf", () => {
  it.each([
    ["/v1/projects/p1/agents", "agents"],
    ["/v1/projects/p1/agents/a1/versions", "agents"],
    ["/v1/projects/p1/sessions/s1/events/stream", "sessions"],
    ["/v1/projects/p1/usage", "usage"],
    ["/v1/projects/p1", "projects"],
    ["/v1/projects/p1/", "projects"],
    ["/v1/projects", "projects"],
    ["/v1/skills/k1/files/a/b.md", "skills"],
    ["/v1/platform/context", "platform"],
    ["/V1/Projects/p1/AGENTS", "agents"],
    ["/v1/openapi.json", "openapi.json"],
    ["/healthz", ""],
    ["/", ""],
    ["", ""],
  ])("%s is in area %j", (path, area) => {
    expect(areaOf(path)).toBe(area);
  });
});

// The routes are grouped by area, and a request tries its area's routes only: what Express matched before (any case,
// a trailing slash, unknown paths and methods) must be answered as before.
describe("routing by area", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("serves a route whatever the case of its path and with a trailing slash, as Express does", async () => {
    const created = await t.http
      .post(`${t.tenant.base}/agents`)
      .set(t.tenant.auth)
      .send({ name: "Routed", model: "builtin/echo" });
    expect(created.status).toBe(201);
    const upper = await t.http.get(
      `${t.tenant.base.replace("/v1/projects", "/V1/PROJECTS")}/Agents/${created.body.id}`,
    );
    expect(upper.status).toBe(401);
    const read = await t.http
      .get(`${t.tenant.base.replace("/v1/projects", "/v1/Projects")}/AGENTS/${created.body.id}/`)
      .set(t.tenant.auth);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(created.body.id);
  });

  it("answers a path of a known area that no route matches with 404, and a wrong method with 405", async () => {
    expectError(await t.http.get(`${t.tenant.base}/agents/a1/nothing`).set(t.tenant.auth), 404, "route.not_found");
    const wrong = await t.http.delete(`${t.tenant.base}/agents`).set(t.tenant.auth);
    expectError(wrong, 405, "route.method_not_allowed");
    expect(wrong.headers.allow).toBe("POST, GET");
  });

  it("finds routes of several contracts that share an area (a session's artifacts and files)", async () => {
    const res = await t.http.get(`${t.tenant.base}/sessions/sesn_missing/artifacts`).set(t.tenant.auth);
    expectError(res, 404, "session.not_found");
    const files = await t.http.get(`${t.tenant.base}/sessions/sesn_missing/files`).set(t.tenant.auth);
    expectError(files, 404, "session.not_found");
  });

  it("still serves what is not the keyed API: health, the OpenAPI document, the docs", async () => {
    expect((await t.http.get("/healthz")).status).toBe(200);
    expect((await t.http.get("/v1/openapi.json")).status).toBe(200);
    expect((await t.http.get("/docs")).status).toBe(200);
  });
});
