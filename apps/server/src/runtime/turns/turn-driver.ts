import type { AppContext } from "../../context.js";
import type { Claim, ReservedSlot } from "../../jobs/index.js";
import { raceAbort } from "../../lib/abort.js";
import { SESSION_TURN_KIND, type StoredEvent, subscribeSessionEvents, turnDueInMs } from "../../sessions/index.js";
import type { SessionDriver } from "../delegation/session-driver.js";
import { isSettled, readAll } from "./settled.js";

/** What the driver needs of the process's job runner. */
export interface InlineRunner {
  newToken(): string;
  reserve(kind: string): ReservedSlot | undefined;
  runInline(kind: string, key: string, given?: Claim): Promise<{ done: Promise<void> } | undefined>;
}

/** Runs or waits for child sessions on behalf of delegation, through the job runner (see `SessionDriver`). */
export class TurnDriver implements SessionDriver {
  constructor(
    private readonly ctx: AppContext,
    private readonly leaseMs: number,
    private readonly runner: () => InlineRunner,
  ) {}

  newChildLease(): { token: string; leaseMs: number } {
    return { token: this.runner().newToken(), leaseMs: this.leaseMs };
  }

  readLog(sessionId: string): Promise<StoredEvent[]> {
    return readAll(this.ctx, sessionId);
  }

  async runUntilSettled(sessionId: string, signal: AbortSignal, claim?: Claim): Promise<void> {
    let wake: (() => void) | undefined;
    let dirty = false;
    const unsubscribe = subscribeSessionEvents(this.ctx, sessionId, () => {
      dirty = true;
      wake?.();
    });
    let given = claim;
    try {
      for (;;) {
        if (signal.aborted) throw signal.reason;
        dirty = false;
        const running = await this.runner().runInline(SESSION_TURN_KIND, sessionId, given);
        given = undefined;
        if (running) {
          await raceAbort(running.done, signal);
          continue;
        }
        const events = await readAll(this.ctx, sessionId);
        if (events.length === 0 || isSettled(events)) return;
        // Someone else runs it: wait for its next entry, or for its lease to expire (then claim it here).
        const due = await turnDueInMs(this.ctx.db.pool, sessionId);
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(done, Math.min(due === null ? this.leaseMs : due + 50, this.leaseMs));
          function done() {
            clearTimeout(timer);
            signal.removeEventListener("abort", onAbort);
            wake = undefined;
            resolve();
          }
          function onAbort() {
            clearTimeout(timer);
            wake = undefined;
            reject(signal.reason);
          }
          wake = done;
          if (signal.aborted) return onAbort();
          if (dirty) return done();
          signal.addEventListener("abort", onAbort, { once: true });
        });
      }
    } finally {
      unsubscribe();
    }
  }
}
