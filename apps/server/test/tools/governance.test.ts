import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-error.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const PATH = "/v1/governance/egress-policy";

describe("workspace egress policy", () => {
  it("defaults to allowing every host", async () => {
    const tenant = await t.newTenant();
    const res = await t.http.get(PATH).set(tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ workspaceId: tenant.workspaceId, updatedAt: null });
  });

  it("an admin key replaces it; any key of the workspace reads it", async () => {
    const tenant = await t.newTenant();
    const put = await t.http
      .put(PATH)
      .set(tenant.auth)
      .send({ allowedDomains: ["*.example.com", " Docs.Test "], deniedDomains: ["evil.example.com"] });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      workspaceId: tenant.workspaceId,
      allowedDomains: ["*.example.com", "Docs.Test"],
      deniedDomains: ["evil.example.com"],
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const got = await t.http.get(PATH).set(tenant.auth);
    expect(got.body).toEqual(put.body);

    // PUT replaces the whole policy: `{}` is back to allow-all.
    const reset = await t.http.put(PATH).set(tenant.auth).send({});
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ workspaceId: tenant.workspaceId, updatedAt: expect.any(String) });
  });

  it("a member key may read but not change it (403 auth.forbidden)", async () => {
    const member = await t.newTenant("member");
    expect((await t.http.get(PATH).set(member.auth)).status).toBe(200);
    const res = await t.http
      .put(PATH)
      .set(member.auth)
      .send({ deniedDomains: ["x.test"] });
    expectError(res, 403, "auth.forbidden");
    expect((await t.http.get(PATH).set(member.auth)).body).toEqual({
      workspaceId: member.workspaceId,
      updatedAt: null,
    });
  });

  it("is per workspace", async () => {
    const a = await t.newTenant();
    const b = await t.newTenant();
    await t.http
      .put(PATH)
      .set(a.auth)
      .send({ deniedDomains: ["a.test"] });
    expect((await t.http.get(PATH).set(b.auth)).body).toEqual({ workspaceId: b.workspaceId, updatedAt: null });
  });

  it("refuses patterns that are not hosts, unknown fields and oversized lists (400 request.invalid)", async () => {
    const bad = await t.http
      .put(PATH)
      .set(t.tenant.auth)
      .send({ deniedDomains: ["ok.test", "http://x.test/path"] });
    expectError(bad, 400, "request.invalid");
    expect(bad.body.error.details.issues).toEqual([{ path: "body.deniedDomains.1", message: expect.any(String) }]);

    const port = await t.http
      .put(PATH)
      .set(t.tenant.auth)
      .send({ allowedDomains: ["x.test:99999"] });
    expectError(port, 400, "request.invalid");
    expect(port.body.error.details.issues).toEqual([
      { path: "body.allowedDomains.0", message: '"x.test:99999" is not a host pattern' },
    ]);

    expectError(await t.http.put(PATH).set(t.tenant.auth).send({ blocked: [] }), 400, "request.invalid");
    const many = Array.from({ length: 257 }, (_, i) => `h${i}.test`);
    expectError(await t.http.put(PATH).set(t.tenant.auth).send({ deniedDomains: many }), 400, "request.invalid");
  });

  it("needs a valid key (401 auth.unauthorized)", async () => {
    expectError(await t.http.get(PATH), 401, "auth.unauthorized");
    expectError(await t.http.put(PATH).send({}), 401, "auth.unauthorized");
    expectError(await t.http.get(PATH).set({ Authorization: "Bearer nope" }), 401, "auth.unauthorized");
  });
});
