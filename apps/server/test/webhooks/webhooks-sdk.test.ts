import { verifyWebhook, WebhookVerificationError } from "@agent-platform/sdk";
import { createClient } from "@agent-platform/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { waitUntil } from "./helpers.js";
import { type Receiver, startReceiver } from "./receiver.js";

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestApp({ role: "all" });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe("webhooks through the SDK", () => {
  it("creates an endpoint, sends a test event and verifies the delivery with verifyWebhook", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const endpoint = await client.webhooks.create({ body: { url: receiver.url, events: ["session.idle"] } });
    await client.webhooks.test({ params: { id: endpoint.id } });
    const [delivery] = await waitUntil("the delivery", async () =>
      receiver.received.length > 0 ? receiver.received : undefined,
    );
    const event = verifyWebhook(delivery!.body, delivery!.headers, endpoint.secret);
    expect(event.type).toBe("webhook.test");
    if (event.type === "webhook.test") expect(event.data.webhookId).toBe(endpoint.id);
    const bytes = new TextEncoder().encode(delivery!.body);
    expect(verifyWebhook(bytes, new Headers(delivery!.headers), endpoint.secret)).toEqual(event);
    expect(() => verifyWebhook(`${delivery!.body} `, delivery!.headers, endpoint.secret)).toThrow(
      WebhookVerificationError,
    );
    const { "webhook-signature": _, ...unsigned } = delivery!.headers;
    expect(() => verifyWebhook(delivery!.body, unsigned, endpoint.secret)).toThrow(/Missing webhook-signature/);
    const page = await client.webhooks.listDeliveries({ params: { id: endpoint.id } });
    expect(page.data[0]).toMatchObject({ eventType: "webhook.test", eventId: delivery!.headers["webhook-id"] });
  });
});
