import { ApiError, paginate } from "@agent-platform/sdk";
import { createClient } from "@agent-platform/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("SDK", () => {
  it("returns typed bodies", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const context = await client.platform.context();
    expect(context.project.id).toBe(t.tenant.projectId);
  });

  it("throws ApiError carrying code, status, requestId and details", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const error = await client.projects.create({ body: { name: "" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.code).toBe("request.invalid");
    expect(apiError.requestId).toMatch(/^req_/);
    expect(apiError.details?.issues).toBeDefined();

    const bad = createClient({ baseUrl: t.url, apiKey: "ap_wrong" });
    await expect(bad.platform.context()).rejects.toMatchObject({ status: 401, code: "auth.unauthorized" });
  });

  it("iterates a cursor list across pages", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    for (let i = 0; i < 3; i++) await client.apiKeys.create({ body: { name: `p${i}`, projectId: t.tenant.projectId } });
    const ids: string[] = [];
    for await (const key of paginate(client.apiKeys.list, { query: { limit: 1 } })) ids.push(key.id);
    expect(ids.length).toBe(4);
    expect(new Set(ids).size).toBe(4);
  });

  it("makes a retried mutation safe with an idempotency key", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const a = await client.projects.create({ body: { name: "Once" }, idempotencyKey: "create-once-1" });
    const b = await client.projects.create({ body: { name: "Once" }, idempotencyKey: "create-once-1" });
    expect(b.id).toBe(a.id);
    await expect(
      client.projects.create({ body: { name: "Other" }, idempotencyKey: "create-once-1" }),
    ).rejects.toMatchObject({ status: 409, code: "idempotency.conflict" });
  });
});
