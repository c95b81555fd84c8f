import { ERROR_STATUS } from "@agent-platform/contract";
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

describe("error envelope", () => {
  it("answers an unknown route with 404 route.not_found", async () => {
    const res = await t.http.get("/v1/nothing-here").set(t.tenant.auth);
    expectError(res, 404, "route.not_found");
  });

  it("answers a wrong method with 405 and an Allow header", async () => {
    const res = await t.http.delete("/v1/platform/context").set(t.tenant.auth);
    expectError(res, 405, "route.method_not_allowed");
    expect(res.headers.allow).toBe("GET");
  });

  it.each([
    ["{nope", "line 1, column 2 (character 1)"],
    ['{"name":', "Unexpected end of input at line 1, column 9 (character 8)"],
    ['{\n  "name": "x",\n}', "line 3, column 1 (character 17)"],
    ['{"name":"x"} trailing', "character 13"],
    ['{"name":\n tru}', "Unexpected token"],
  ])("answers malformed JSON %j with 400 request.invalid and one issue saying where", async (body, where) => {
    const res = await t.http.post("/v1/projects").set(t.tenant.auth).set("Content-Type", "application/json").send(body);
    expectError(res, 400, "request.invalid");
    const issues = res.body.error.details.issues as { path: string; message: string }[];
    expect(issues).toEqual([{ path: "", message: expect.stringContaining("not valid JSON") }]);
    expect(issues[0]!.message).toContain(where);
    expect(res.body.error.message).toBe(issues[0]!.message);
  });

  it("no longer knows request.malformed_json (the spec's request.invalid covers it)", () => {
    expect(Object.keys(ERROR_STATUS)).not.toContain("request.malformed_json");
  });

  it("answers an oversized body with 413 request.too_large", async () => {
    const big = JSON.stringify({ name: "x".repeat(11 * 1024 * 1024) });
    const res = await t.http.post("/v1/projects").set(t.tenant.auth).set("Content-Type", "application/json").send(big);
    expectError(res, 413, "request.too_large");
  });

  it("answers a non-JSON body with 415", async () => {
    const res = await t.http.post("/v1/projects").set(t.tenant.auth).set("Content-Type", "text/plain").send("name=x");
    expectError(res, 415, "request.unsupported_media_type");
  });

  it("lists schema violations with field paths", async () => {
    const res = await t.http.post("/v1/projects").set(t.tenant.auth).send({ name: "", extra: 1 });
    expectError(res, 400, "request.invalid");
    const issues = res.body.error.details.issues as { path: string; message: string }[];
    expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(["body.name", "body"]));
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
  });

  it("rejects an out-of-range limit", async () => {
    const res = await t.http.get("/v1/projects?limit=101").set(t.tenant.auth);
    expectError(res, 400, "request.invalid");
    expect(res.body.error.details.issues[0].path).toBe("query.limit");
  });

  it("serves health without a key", async () => {
    expect((await t.http.get("/healthz")).body).toEqual({ status: "ok" });
    const ready = await t.http.get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: "ready", checks: { database: "ok", listener: "ok" } });
    expect(Object.values(ready.body.checks).every((state) => state === "ok")).toBe(true);
  });
});

describe("malformed paths", () => {
  it("answers a broken percent-escape with 400 request.invalid, not a 500", async () => {
    const res = await t.http.get("/v1/projects/%E0%A4%A").set(t.tenant.auth);
    expectError(res, 400, "request.invalid");
  });
});
