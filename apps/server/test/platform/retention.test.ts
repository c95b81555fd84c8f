import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRetentionSettings, sweepRetention } from "../../src/retention.js";
import { createAgent } from "../sessions/helpers.js";
import { waitUntil } from "../sessions/loop-helpers.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createWebhook, deliveries } from "../webhooks/helpers.js";
import { type Receiver, startReceiver } from "../webhooks/receiver.js";

// Retention of automation run records and webhook deliveries: the hourly sweep (called here directly) deletes what is
// older than the settings allow and nothing else. Ages are set in the database: waiting 90 days is not an option.
let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  // A failed attempt (the machine busy) is retried at once rather than after the default 5 s.
  t = await startTestApp({ role: "all", env: { WEBHOOK_RETRY_DELAYS_MS: "100,100,100,100,100" } });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const age = (table: string, column: string, id: string, days: number) =>
  t.platform.ctx.db.pool.query(`UPDATE ${table} SET "${column}" = now() - make_interval(days => $2) WHERE "id" = $1`, [
    id,
    days,
  ]);

describe("retention", () => {
  it("reads its settings: 90 days of automation runs, 30 of webhook deliveries, 0 keeps everything", () => {
    expect(readRetentionSettings({})).toEqual({ automationRunDays: 90, webhookDeliveryDays: 30 });
    expect(readRetentionSettings({ AUTOMATION_RUN_RETENTION_DAYS: "0", WEBHOOK_DELIVERY_RETENTION_DAYS: "7" })).toEqual(
      { automationRunDays: 0, webhookDeliveryDays: 7 },
    );
    expect(() => readRetentionSettings({ WEBHOOK_DELIVERY_RETENTION_DAYS: "-1" })).toThrow(
      /WEBHOOK_DELIVERY_RETENTION_DAYS/,
    );
  });

  it("deletes automation runs and finished webhook deliveries past their retention, and keeps the rest", {
    timeout: 150_000,
  }, async () => {
    const { tenant } = t;
    const agent = await createAgent(t, tenant);
    const automation = await t.http
      .post(`${tenant.base}/automations`)
      .set(tenant.auth)
      .send({ name: "chores", agentId: agent.id, prompt: "go", trigger: { type: "manual" } });
    const runIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const run = await t.http.post(`${tenant.base}/automations/${automation.body.id}/run`).set(tenant.auth);
      runIds.push(run.body.runId);
    }
    const listRuns = async () =>
      (await t.http.get(`${tenant.base}/automations/${automation.body.id}/runs`).set(tenant.auth)).body.data as {
        id: string;
      }[];
    await waitUntil("both runs recorded", async () => ((await listRuns()).length === 2 ? true : undefined), 60_000);

    // Test events only: the runs' sessions, still going, would publish theirs to a "*" endpoint.
    const webhook = await createWebhook(t, tenant, { url: receiver.url, events: ["webhook.test"] });
    for (let i = 0; i < 3; i++) await t.http.post(`/v1/webhooks/${webhook.id}/test`).set(tenant.auth);
    const sent = await waitUntil(
      "three deliveries succeeded",
      async () => {
        const list = await deliveries(t, tenant, webhook.id);
        return list.length === 3 && list.every((d) => d.status === "succeeded") ? list : undefined;
      },
      60_000,
    );

    // One run 91 days old; one delivery finished 31 days ago, and one marked pending with old timestamps (a pending
    // delivery is never deleted, whatever its age).
    await age("automation_runs", "createdAt", runIds[0]!, 91);
    await age("webhook_deliveries", "finishedAt", sent[0].id, 31);
    await age("webhook_deliveries", "finishedAt", sent[1].id, 31);
    await t.platform.ctx.db.pool.query(`UPDATE webhook_deliveries SET "status" = 'pending' WHERE "id" = $1`, [
      sent[1].id,
    ]);

    const kept = await sweepRetention(t.platform.ctx, { automationRunDays: 0, webhookDeliveryDays: 0 });
    expect(kept).toEqual({ automationRuns: 0, webhookDeliveries: 0 });
    expect(await listRuns()).toHaveLength(2);

    const deleted = await sweepRetention(t.platform.ctx, readRetentionSettings({}));
    expect(deleted).toEqual({ automationRuns: 1, webhookDeliveries: 1 });
    expect((await listRuns()).map((r) => r.id)).toEqual([runIds[1]]);
    expect((await deliveries(t, tenant, webhook.id)).map((d) => d.id).sort()).toEqual([sent[1].id, sent[2].id].sort());
    // The session the old run started is still there.
    const sessions = await t.http
      .get(`${tenant.base}/sessions?metadata[automationId]=${automation.body.id}`)
      .set(tenant.auth);
    expect(sessions.body.data).toHaveLength(2);
  });
});
