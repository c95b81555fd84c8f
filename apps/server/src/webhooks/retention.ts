import type pg from "pg";
import { deleteInBatches } from "../lib/delete-in-batches.js";

/**
 * Deletes the deliveries that finished (succeeded or failed) more than `days` ago (`WEBHOOK_DELIVERY_RETENTION_DAYS`);
 * a pending one is never deleted, however old.
 */
export function deleteExpiredWebhookDeliveries(pool: pg.Pool, days: number): Promise<number> {
  return deleteInBatches(
    pool,
    "webhook_deliveries",
    `"status" <> 'pending' AND "finishedAt" < now() - make_interval(days => $1)`,
    [days],
  );
}
