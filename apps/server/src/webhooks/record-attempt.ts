import type pg from "pg";
import { type DeliverySettings, nextAttemptAt } from "./delivery-settings.js";
import { announceEndpointChange } from "./endpoint-cache.js";
import type { Attempt } from "./send-delivery.js";

/**
 * Records an attempt in the delivery job's fenced transaction: success ends the delivery and resets the endpoint's
 * failure count; a failure schedules the next attempt (or fails the delivery after the last one) and counts against
 * the endpoint, which is disabled — with its reason, its pending deliveries failed — after
 * `disableAfterFailures` failed attempts in a row. Returns when the next attempt is due, if any.
 */
export async function recordAttempt(
  client: pg.PoolClient,
  delivery: { id: string; webhookId: string; workspaceId: string; attempts: number },
  attempt: Attempt,
  settings: DeliverySettings,
): Promise<Date | null> {
  const attempts = delivery.attempts + 1;
  if (attempt.ok) {
    await client.query(
      `UPDATE webhook_deliveries SET "status" = 'succeeded', "attempts" = $2, "lastStatusCode" = $3, "lastError" = NULL,
         "latencyMs" = $4, "finishedAt" = now(), "nextAttemptAt" = NULL
       WHERE "id" = $1`,
      [delivery.id, attempts, attempt.statusCode, attempt.latencyMs],
    );
    await client.query(`UPDATE webhook_endpoints SET "consecutiveFailures" = 0 WHERE "id" = $1`, [delivery.webhookId]);
    return null;
  }
  const retryAt = nextAttemptAt(settings, attempts);
  await client.query(
    `UPDATE webhook_deliveries SET "status" = $2, "attempts" = $3, "lastStatusCode" = $4, "lastError" = $5,
       "latencyMs" = $6, "nextAttemptAt" = $7, "finishedAt" = CASE WHEN $2 = 'failed' THEN now() END
     WHERE "id" = $1`,
    [
      delivery.id,
      retryAt ? "pending" : "failed",
      attempts,
      attempt.statusCode,
      attempt.error,
      attempt.latencyMs,
      retryAt,
    ],
  );
  const { rows } = await client.query<{ consecutiveFailures: number }>(
    `UPDATE webhook_endpoints SET "consecutiveFailures" = "consecutiveFailures" + 1 WHERE "id" = $1
     RETURNING "consecutiveFailures"`,
    [delivery.webhookId],
  );
  const failures = rows[0]?.consecutiveFailures ?? 0;
  if (failures < settings.disableAfterFailures) return retryAt;
  const reason = `Disabled after ${failures} failed delivery attempts in a row (last: ${attempt.error})`;
  await client.query(
    `UPDATE webhook_endpoints SET "enabled" = false, "disabledReason" = $2, "updatedAt" = now() WHERE "id" = $1`,
    [delivery.webhookId, reason],
  );
  await failPending(client, delivery.webhookId, "The endpoint was disabled after repeated failures");
  await announceEndpointChange(client, delivery.workspaceId);
  return null;
}

/** Ends an endpoint's pending deliveries (it was disabled); they can be redelivered. */
export async function failPending(client: Pick<pg.Pool, "query">, webhookId: string, why: string): Promise<void> {
  await client.query(
    `UPDATE webhook_deliveries SET "status" = 'failed', "lastError" = COALESCE("lastError" || '; ', '') || $2,
       "finishedAt" = now(), "nextAttemptAt" = NULL
     WHERE "webhookId" = $1 AND "status" = 'pending'`,
    [webhookId, why],
  );
}
