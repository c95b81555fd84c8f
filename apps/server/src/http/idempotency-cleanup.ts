import type { AppContext } from "../context.js";
import type { Stoppable } from "../lib/lifecycle.js";
import { startPeriodicSweep } from "../lib/periodic-sweep.js";

/** Stored responses of `Idempotency-Key` requests are kept for a day. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export async function deleteExpiredIdempotencyRecords(ctx: AppContext): Promise<number> {
  const result = await ctx.db.pool.query(
    `DELETE FROM idempotency_records WHERE "createdAt" < now() - make_interval(hours => $1)`,
    [IDEMPOTENCY_RETENTION_HOURS],
  );
  return result.rowCount ?? 0;
}

/** Hourly sweep (any number of workers may run it: the delete is idempotent). */
export function startIdempotencyCleanup(ctx: AppContext): Stoppable {
  return startPeriodicSweep("idempotency cleanup", SWEEP_EVERY_MS, ctx.logger, () =>
    deleteExpiredIdempotencyRecords(ctx),
  );
}
