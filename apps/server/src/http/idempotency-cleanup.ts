import type { AppContext } from "../context.js";
import type { Stoppable } from "../lib/lifecycle.js";

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
export async function startIdempotencyCleanup(ctx: AppContext): Promise<Stoppable> {
  const sweep = () =>
    deleteExpiredIdempotencyRecords(ctx).catch((err) => ctx.logger.warn({ err }, "idempotency cleanup failed"));
  const timer = setInterval(sweep, SWEEP_EVERY_MS);
  timer.unref();
  void sweep();
  return {
    async stop() {
      clearInterval(timer);
    },
  };
}
