import { isDatabaseUnavailable } from "./database-unavailable.js";

const FIRST_WAIT_MS = 100;
const MAX_WAIT_MS = 1_000;

/**
 * Runs `write` until it succeeds, trying again while the database is unreachable (a restart, a failover) for at most
 * `withinMs`: a write that must follow a failure caused by an outage (a job handed back, an idempotency key freed) is
 * made as soon as the database answers, instead of being lost. Resolves true once written, false when `withinMs`
 * passed first. Any other error is thrown.
 */
export async function untilDatabaseAnswers(write: () => Promise<unknown>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  let waitMs = FIRST_WAIT_MS;
  for (;;) {
    try {
      await write();
      return true;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      if (Date.now() + waitMs > deadline) return false;
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    waitMs = Math.min(waitMs * 2, MAX_WAIT_MS);
  }
}
