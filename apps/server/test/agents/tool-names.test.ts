import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("agent tools", () => {
  it("answers a misspelled built-in tool with the valid names", async () => {
    const res = await t.http
      .post(`/v1/projects/${t.tenant.projectId}/agents`)
      .set(t.tenant.auth)
      .send({ name: "Typo", model: "builtin/echo", tools: ["webfetch"] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("request.invalid");
    expect(res.body.error.details.issues).toEqual([
      { path: "body.tools.0", message: expect.stringContaining('unknown built-in tool "webfetch"; built-in tools:') },
    ]);
    expect(res.body.error.details.issues[0].message).toContain("web_fetch");
  });
});
