import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";
import { createWebhook, deliveries, waitUntil } from "./helpers.js";
import { type Receiver, startReceiver } from "./receiver.js";

let receiver: Receiver;
const apps: TestApp[] = [];
const workers: ChildProcess[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await Promise.all(workers.map(stopWorkerProcess));
  for (const app of apps) await app.close();
  await receiver?.close();
});

describe("webhook deliveries", () => {
  it("are durable: an event published with no worker running is delivered once a worker starts", async () => {
    const t = await startTestApp({ role: "api" });
    apps.push(t);
    const created = await createWebhook(t, t.tenant, { url: receiver.url, events: ["webhook.test"] });
    const queued = await t.http.post(`/v1/webhooks/${created.id}/test`).set(t.tenant.auth);
    expect(queued.body.status).toBe("pending");
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(0);

    workers.push(await startWorkerProcess(t));
    const [delivery] = await waitUntil(
      "the delivery",
      async () => (receiver.received.length > 0 ? receiver.received : undefined),
      30_000,
    );
    expect(receiver.verify(delivery!, created.secret)).toMatchObject({ type: "webhook.test" });
    expect(delivery!.headers["webhook-id"]).toBe(queued.body.eventId);
    await waitUntil("the delivery recorded", async () => {
      const [recorded] = await deliveries(t, t.tenant, created.id);
      return recorded?.status === "succeeded" ? recorded : undefined;
    });
  });

  it("obey the outbound address policy: a loopback receiver is refused unless EGRESS_ALLOW_CIDRS opens it", async () => {
    const t = await startTestApp({ role: "all", env: { EGRESS_ALLOW_CIDRS: "", WEBHOOK_RETRY_DELAYS_MS: "" } });
    apps.push(t);
    receiver.received.length = 0;
    // At write time, with the message a delivery would record.
    const refused = await t.http
      .post("/v1/webhooks")
      .set(t.tenant.auth)
      .send({ url: receiver.url, events: ["webhook.test"] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0].path).toBe("body.url");
    expect(refused.body.error.message).toMatch(/loopback/i);
    expect(refused.body.error.message).toContain("EGRESS_ALLOW_CIDRS");

    // At delivery time, for a receiver whose address changed since (a name that did not resolve when written).
    const created = await createWebhook(t, t.tenant, {
      url: "https://receiver.invalid/hook",
      events: ["webhook.test"],
    });
    await t.platform.ctx.db.prisma.webhookEndpoint.update({ where: { id: created.id }, data: { url: receiver.url } });
    await t.http.post(`/v1/webhooks/${created.id}/test`).set(t.tenant.auth);
    const recorded = await waitUntil("the refused attempt", async () => {
      const [delivery] = await deliveries(t, t.tenant, created.id);
      return delivery && delivery.attempts > 0 ? delivery : undefined;
    });
    expect(recorded.lastError).toMatch(/loopback/i);
    expect(recorded.lastError).toContain("EGRESS_ALLOW_CIDRS");
    expect(recorded.lastStatusCode).toBeNull();
    expect(receiver.received).toHaveLength(0);
  });
});
