import type { AppContext } from "../../context.js";
import { readEvents, type StoredEvent, subscribeSessionEvents } from "../../sessions/index.js";

/**
 * Waits until the session's turn ends (a `session.status_idle` entry after `afterSeq`: a case session gets one user
 * message after its conversation, so the first idle after that ends the case) or `deadline` passes, woken by the session's log notifications (no polling). Returns the
 * entries read so far (the whole log). Rejects with the signal's reason when `signal` aborts.
 */
export async function waitForTurnEnd(
  ctx: AppContext,
  sessionId: string,
  deadline: number,
  signal: AbortSignal,
  /** Entries before the case's own turn (a multi-turn case's conversation, which has idles of its own). */
  afterSeq = 0,
): Promise<{ log: StoredEvent[]; ended: boolean }> {
  const log: StoredEvent[] = [];
  let wake: (() => void) | undefined;
  let dirty = true;
  const unsubscribe = subscribeSessionEvents(ctx, sessionId, () => {
    dirty = true;
    wake?.();
  });
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      if (dirty) {
        dirty = false;
        for (;;) {
          const page = await readEvents(ctx.db.pool, sessionId, log.at(-1)?.seq ?? afterSeq, 1_000);
          log.push(...page);
          if (page.length < 1_000) break;
        }
        if (log.some((e) => e.type === "session.status_idle")) return { log, ended: true };
      }
      const left = deadline - Date.now();
      if (left <= 0) return { log, ended: false };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        const onAbort = () => done();
        signal.addEventListener("abort", onAbort, { once: true });
        function done() {
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
          wake = undefined;
          resolve();
        }
        wake = done;
        if (dirty || signal.aborted) done();
      });
    }
  } finally {
    unsubscribe();
  }
}
