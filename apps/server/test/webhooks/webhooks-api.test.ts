import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createWebhook, deliveries, expectError, expectInvalid } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  // API only: nothing is delivered, so what the routes store can be read as it is.
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const URL = "https://hooks.example.com/agent-platform";

describe("webhook endpoints", () => {
  it("creates an endpoint with its secret shown once, then reads, lists, patches and deletes it", async () => {
    const created = await createWebhook(t, t.tenant, {
      url: URL,
      events: ["session.idle", "experiment.completed"],
      description: "ops",
      projectIds: [t.tenant.projectId],
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-z]{26}$/),
      url: URL,
      events: ["session.idle", "experiment.completed"],
      description: "ops",
      projectIds: [t.tenant.projectId],
      enabled: true,
      disabledReason: null,
      secretRotatedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const { secret, ...withoutSecret } = created;
    const got = await t.http.get(`/v1/webhooks/${created.id}`).set(t.tenant.auth);
    expect(got.body).toEqual({ ...withoutSecret, updatedAt: expect.any(String) });
    expect(JSON.stringify(got.body)).not.toContain(secret);
    const list = await t.http.get("/v1/webhooks").set(t.tenant.auth);
    expect(list.body.data.map((w: { id: string }) => w.id)).toContain(created.id);
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const patched = await t.http
      .patch(`/v1/webhooks/${created.id}`)
      .set(t.tenant.auth)
      .send({ events: ["*"], description: null, projectIds: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ["*"], description: null, projectIds: null, url: URL, enabled: true });
    const disabled = await t.http.patch(`/v1/webhooks/${created.id}`).set(t.tenant.auth).send({ enabled: false });
    expect(disabled.body.enabled).toBe(false);

    const removed = await t.http.delete(`/v1/webhooks/${created.id}`).set(t.tenant.auth);
    expect(removed.status).toBe(204);
    expectError(await t.http.get(`/v1/webhooks/${created.id}`).set(t.tenant.auth), 404, "webhook.not_found");
  });

  it("validates the body with field paths and refuses projects outside the workspace", async () => {
    const post = (body: object) => t.http.post("/v1/webhooks").set(t.tenant.auth).send(body);
    expectInvalid(await post({ url: "not a url", events: ["session.idle"] }), ["body.url"]);
    expectInvalid(await post({ url: "ftp://example.com/x", events: ["session.idle"] }), ["body.url"]);
    expectInvalid(await post({ url: URL, events: [] }), ["body.events"]);
    expectInvalid(await post({ url: URL, events: ["session.born"] }), ["body.events.0"]);
    expectInvalid(await post({ url: URL, events: ["session.idle", "session.idle"] }), ["body.events"]);
    expectInvalid(await post({ url: URL, events: ["session.idle"], secret: "mine" }), ["body"]);
    const other = await t.newTenant();
    expectError(
      await post({ url: URL, events: ["session.idle"], projectIds: [other.projectId] }),
      422,
      "webhook.project_not_found",
    );
  });

  it("rotates the secret: the new one is shown once and the old one keeps signing for 24 hours", async () => {
    const created = await createWebhook(t, t.tenant, { url: URL, events: ["*"] });
    const res = await t.http.post(`/v1/webhooks/${created.id}/rotate-secret`).set(t.tenant.auth);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(created.secret);
    const expires = Date.parse(res.body.previousSecretExpiresAt) - Date.now();
    expect(expires).toBeGreaterThan(23 * 3600_000);
    expect(expires).toBeLessThanOrEqual(24 * 3600_000);
    expect(res.body.webhook.secretRotatedAt).not.toBeNull();
  });

  it("queues a test event and lists its delivery; an unknown delivery is 404", async () => {
    const created = await createWebhook(t, t.tenant, { url: URL, events: ["session.idle"] });
    const test = await t.http.post(`/v1/webhooks/${created.id}/test`).set(t.tenant.auth);
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({
      id: expect.stringMatching(/^whdel_/),
      webhookId: created.id,
      eventId: expect.stringMatching(/^msg_/),
      eventType: "webhook.test",
      status: "pending",
      attempts: 0,
      lastStatusCode: null,
      finishedAt: null,
    });
    expect((await deliveries(t, t.tenant, created.id)).map((d) => d.id)).toEqual([test.body.id]);
    expectError(
      await t.http.post(`/v1/webhooks/${created.id}/deliveries/whdel_missing/redeliver`).set(t.tenant.auth),
      404,
      "webhook.delivery_not_found",
    );
  });

  it("hides another workspace's endpoint and refuses member keys", async () => {
    const created = await createWebhook(t, t.tenant, { url: URL, events: ["*"] });
    const other = await t.newTenant();
    expectError(await t.http.get(`/v1/webhooks/${created.id}`).set(other.auth), 404, "webhook.not_found");
    expectError(await t.http.delete(`/v1/webhooks/${created.id}`).set(other.auth), 404, "webhook.not_found");
    const member = await t.newTenant("member");
    expectError(await t.http.get("/v1/webhooks").set(member.auth), 403, "auth.forbidden");
  });
});
