import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgent, message } from "../sessions/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import type { Tenant } from "../support/factories.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createWebhook, deliveries, waitUntil } from "./helpers.js";
import { type Receiver, startReceiver } from "./receiver.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let receiver: Receiver;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  receiver = await startReceiver();
  t = await startTestApp({
    role: "all",
    env: {
      OPENAI_COMPATIBLE_BASE_URL: fake.url,
      // The delivery code path with a fast schedule: 3 retries 100 ms apart, a 500 ms timeout, disabled at 4 failures.
      WEBHOOK_RETRY_DELAYS_MS: "100,100,100",
      WEBHOOK_TIMEOUT_MS: "500",
      WEBHOOK_DISABLE_AFTER_FAILURES: "4",
    },
  });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await fake?.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  fake.reset();
});

/** A fresh tenant whose endpoint receives `events`; the tenant's deliveries go to the shared receiver. */
async function endpoint(events: string[]): Promise<{ tenant: Tenant; id: string; secret: string }> {
  const tenant = await t.newTenant();
  const created = await createWebhook(t, tenant, { url: receiver.url, events });
  return { tenant, id: created.id, secret: created.secret };
}

const receivedOf = (predicate: (event: { type: string; data: Record<string, unknown> }) => boolean, count = 1) =>
  waitUntil(`${count} deliveries`, async () => {
    const found = receiver.received.filter((r) => predicate(r.event));
    return found.length >= count ? found : undefined;
  });

describe("delivering webhook events", () => {
  it("delivers a test event signed the Standard Webhooks way, and records the delivery", async () => {
    const { tenant, id, secret } = await endpoint(["session.idle"]);
    await t.http.post(`/v1/webhooks/${id}/test`).set(tenant.auth);
    const [delivery] = await receivedOf((e) => e.type === "webhook.test" && e.data.webhookId === id);
    expect(receiver.verify(delivery!, secret)).toMatchObject({ type: "webhook.test", data: { webhookId: id } });
    expect(delivery!.headers["webhook-id"]).toMatch(/^msg_/);
    expect(Number(delivery!.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -2);
    expect(delivery!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(() => receiver.verify(delivery!, `whsec_${Buffer.alloc(24).toString("base64")}`)).toThrow();
    const [recorded] = await waitUntil("the delivery recorded", async () => {
      const list = await deliveries(t, tenant, id);
      return list[0]?.status === "succeeded" ? list : undefined;
    });
    expect(recorded).toMatchObject({ attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
  });

  it("publishes session events in order: session.idle, session.requires_action, session.error", async () => {
    const { tenant, secret } = await endpoint(["*"]);
    const agent = await createAgent(t, tenant, {
      model: MODEL,
      tools: ["artifact_write"],
      toolPermissions: { artifact_write: "always_ask" },
    });
    fake.enqueue({ text: "hello back" });
    const plain = await t.http
      .post(`${tenant.base}/sessions`)
      .set(tenant.auth)
      .send({ agent: agent.id, events: [message("hi")] });
    const [idle] = await receivedOf((e) => e.data.sessionId === plain.body.id);
    expect(receiver.verify(idle!, secret)).toMatchObject({
      type: "session.idle",
      data: { projectId: tenant.projectId, sessionId: plain.body.id, agentId: agent.id, stopReason: "end_turn" },
    });

    fake.enqueue({ toolCalls: [{ name: "artifact_write", arguments: { name: "a.md", content: "x" } }] });
    const asking = await t.http
      .post(`${tenant.base}/sessions`)
      .set(tenant.auth)
      .send({ agent: agent.id, events: [message("write it")] });
    const asked = await receivedOf((e) => e.data.sessionId === asking.body.id, 2);
    expect(asked.map((r) => r.event.type)).toEqual(["session.requires_action", "session.idle"]);
    expect(asked[0]!.event.data.pendingActions).toEqual([
      { toolUseId: expect.stringMatching(/^evt_/), kind: "confirmation", name: "artifact_write" },
    ]);
    expect(asked[1]!.event.data.stopReason).toBe("requires_action");

    fake.enqueue({ status: 400, body: { error: { message: "no such model", type: "invalid_request_error" } } });
    const failing = await t.http
      .post(`${tenant.base}/sessions`)
      .set(tenant.auth)
      .send({ agent: agent.id, events: [message("fail")] });
    await waitForIdle(t, tenant, failing.body.id);
    const failed = await receivedOf((e) => e.data.sessionId === failing.body.id, 2);
    expect(failed.map((r) => r.event.type)).toEqual(["session.error", "session.idle"]);
    expect(failed[0]!.event.data.error).toMatchObject({ code: expect.stringMatching(/^model\./) });
    expect(failed[1]!.event.data.stopReason).toBe("error");
  });

  it("retries a failing receiver with the same event id until it answers 2xx", async () => {
    const { tenant, id } = await endpoint(["webhook.test"]);
    receiver.answer(500, 503);
    await t.http.post(`/v1/webhooks/${id}/test`).set(tenant.auth);
    const attempts = await receivedOf((e) => e.type === "webhook.test" && e.data.webhookId === id, 3);
    expect(new Set(attempts.map((a) => a.headers["webhook-id"])).size).toBe(1);
    const [recorded] = await waitUntil("the delivery succeeded", async () => {
      const list = await deliveries(t, tenant, id);
      return list[0]?.status === "succeeded" ? list : undefined;
    });
    expect(recorded).toMatchObject({ attempts: 3, lastStatusCode: 200 });
    const endpointNow = await t.http.get(`/v1/webhooks/${id}`).set(tenant.auth);
    expect(endpointNow.body).toMatchObject({ enabled: true, disabledReason: null });
  });

  it("gives up on a receiver that never answers and disables the endpoint, saying why", async () => {
    const { tenant, id } = await endpoint(["webhook.test"]);
    receiver.answer("hang", "hang", "hang", "hang");
    await t.http.post(`/v1/webhooks/${id}/test`).set(tenant.auth);
    const disabled = await waitUntil(
      "the endpoint disabled",
      async () => {
        const res = await t.http.get(`/v1/webhooks/${id}`).set(tenant.auth);
        return res.body.enabled === false ? res.body : undefined;
      },
      30_000,
    );
    expect(disabled.disabledReason).toMatch(/^Disabled after 4 failed delivery attempts in a row \(last: No answer/);
    const [recorded] = await deliveries(t, tenant, id);
    expect(recorded).toMatchObject({ status: "failed", attempts: 4, lastStatusCode: null });
    expect(recorded.lastError).toContain("No answer within 500 ms");

    // Re-enabled, a redelivery goes out with the same event id.
    await t.http.patch(`/v1/webhooks/${id}`).set(tenant.auth).send({ enabled: true });
    const again = await t.http.post(`/v1/webhooks/${id}/deliveries/${recorded.id}/redeliver`).set(tenant.auth);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ eventId: recorded.eventId, status: "pending" });
    const redelivered = await receivedOf((e) => e.type === "webhook.test" && e.data.webhookId === id, 5);
    expect(redelivered.at(-1)!.headers["webhook-id"]).toBe(recorded.eventId);
  });

  it("signs with both secrets during a rotation", async () => {
    const { tenant, id, secret } = await endpoint(["webhook.test"]);
    const rotated = await t.http.post(`/v1/webhooks/${id}/rotate-secret`).set(tenant.auth);
    await t.http.post(`/v1/webhooks/${id}/test`).set(tenant.auth);
    const [delivery] = await receivedOf((e) => e.type === "webhook.test" && e.data.webhookId === id);
    expect(delivery!.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(receiver.verify(delivery!, rotated.body.secret)).toBeTruthy();
    expect(receiver.verify(delivery!, secret)).toBeTruthy();
  });

  it("publishes automation runs and experiment ends, only to the projects and events subscribed", async () => {
    const { tenant, id } = await endpoint(["automation.run.started", "experiment.completed"]);
    const agent = await createAgent(t, tenant);
    const automation = await t.http
      .post(`${tenant.base}/automations`)
      .set(tenant.auth)
      .send({ name: "nightly", agentId: agent.id, prompt: "report", trigger: { type: "manual" } });
    const run = await t.http.post(`${tenant.base}/automations/${automation.body.id}/run`).set(tenant.auth);
    const [started] = await receivedOf((e) => e.type === "automation.run.started" && e.data.runId === run.body.runId);
    expect(started!.event.data).toEqual({
      projectId: tenant.projectId,
      automationId: automation.body.id,
      runId: run.body.runId,
      sessionId: expect.stringMatching(/^sess_/),
      triggerKind: "manual",
    });
    const dataset = await t.http
      .post(`${tenant.base}/datasets`)
      .set(tenant.auth)
      .send({ name: "d", cases: [{ input: "x", expected: "x" }] });
    const experiment = await t.http
      .post(`${tenant.base}/experiments`)
      .set(tenant.auth)
      .send({
        datasetId: dataset.body.id,
        name: "e",
        task: { type: "model", model: "builtin/echo" },
        scorers: [{ type: "exact_match" }],
      });
    const [completed] = await receivedOf(
      (e) => e.type === "experiment.completed" && e.data.experimentId === experiment.body.id,
    );
    expect(completed!.event.data).toMatchObject({ datasetId: dataset.body.id, totals: { cases: 1, passRate: 1 } });
    // The session the automation started went idle, but this endpoint does not subscribe to session events.
    await new Promise((r) => setTimeout(r, 300));
    const mine = receiver.received.filter((r) =>
      [automation.body.id, experiment.body.id].includes(r.event.data.automationId ?? r.event.data.experimentId),
    );
    expect(mine.map((r) => r.event.type).sort()).toEqual(["automation.run.started", "experiment.completed"]);
    expect((await deliveries(t, tenant, id)).every((d) => d.status === "succeeded")).toBe(true);
  });
});
