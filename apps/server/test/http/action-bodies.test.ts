import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

// Actions that take no input accept no body or `{}`, and refuse anything else like their siblings that declare an
// empty body (`agents.archive`): the OpenAPI document says the same (an empty object, `additionalProperties: false`).
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ACTIONS = (projectId: string) => [
  "/v1/api-keys/key_x/revoke",
  `/v1/projects/${projectId}/sessions/sess_x/archive`,
  `/v1/projects/${projectId}/environments/env_x/archive`,
  `/v1/projects/${projectId}/serverless-tools/st_x/archive`,
  `/v1/projects/${projectId}/automations/auto_x/run`,
  "/v1/webhooks/wh_x/rotate-secret",
  "/v1/webhooks/wh_x/test",
  "/v1/webhooks/wh_x/deliveries/whd_x/redeliver",
  `/v1/projects/${projectId}/agents/agent_x/archive`,
];

describe("body-less actions", () => {
  it("answer 400 request.invalid to a body with fields", async () => {
    for (const path of ACTIONS(t.tenant.projectId)) {
      const res = await t.http.post(path).set("Authorization", `Bearer ${t.tenant.key}`).send({ bogus: 1 });
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status: 400,
        code: "request.invalid",
      });
    }
  });

  it("accept no body and an empty object", async () => {
    const auth = { Authorization: `Bearer ${t.tenant.key}` };
    const env = await t.http.post(`/v1/projects/${t.tenant.projectId}/environments`).set(auth).send({ name: "spare" });
    expect(env.status).toBe(201);
    const path = `/v1/projects/${t.tenant.projectId}/environments/${env.body.id}/archive`;
    expect((await t.http.post(path).set(auth)).status).toBe(200);
    expect((await t.http.post(path).set(auth).send({})).status).toBe(200);
  });
});
