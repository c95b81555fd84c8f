import type { AppContext } from "../context.js";
import { newId } from "../ids.js";
import { type JobKind, type JobOutcome, type NoPayload, RETRY_FOREVER, type RunningJob } from "../jobs/index.js";
import { subscribeSessionEvents } from "../sessions/index.js";
import { sameRevision } from "./automation-row.js";
import { loadAutomation } from "./automation-store.js";
import { commitFiring } from "./firing/commit-firing.js";
import { previousSessionAtWork } from "./firing/overlap.js";
import { prepareFiring } from "./firing/prepare-firing.js";
import { QUEUED_JOB } from "./job-types.js";

/** How long one run waits before handing its slot back (it is due again at once, behind other waiting firings). */
const WAIT_PER_RUN_MS = 60_000;
/** A look at the session without a notification (one missed, or the session deleted: deletion appends nothing). */
const RECHECK_MS = 10_000;

/**
 * Overlap `queue_one` (`automation.queued`, key: the automation id): the one firing that waits for the previous
 * firing's session to finish. It follows that session's log (the shared LISTEN connection) and fires as soon as the
 * session is no longer at work, for the schedule time it was queued for. The wait holds a slot of this kind only (the
 * schedules keep firing) and at most `WAIT_PER_RUN_MS` at a time.
 */
export function automationQueuedKind(ctx: AppContext, concurrency: number, leaseMs: number): JobKind<NoPayload> {
  return {
    ...QUEUED_JOB,
    concurrency,
    leaseMs,
    retry: RETRY_FOREVER,
    run: (job) => fireWhenFree(ctx, job),
  };
}

async function fireWhenFree(ctx: AppContext, job: RunningJob<NoPayload>): Promise<JobOutcome> {
  const deadline = Date.now() + WAIT_PER_RUN_MS;
  const follower = new SessionFollower(ctx);
  try {
    for (;;) {
      if (job.signal.aborted) throw job.signal.reason;
      const row = await loadAutomation(ctx.db.pool, job.key);
      if (!row?.queuedFireAt) return undefined;
      const busy = await previousSessionAtWork(ctx.db.pool, row.id);
      if (!busy) {
        const prepared = await prepareFiring(ctx, row, job.logger);
        const done = await job.fenced(async (client) => {
          const locked = await loadAutomation(client, row.id, "update");
          if (!locked || !sameRevision(locked, row, "queuedFireAt") || (await previousSessionAtWork(client, row.id)))
            return false;
          const firing = {
            runId: newId("automationRun"),
            triggerKind: "schedule" as const,
            scheduledFor: row.queuedFireAt,
          };
          await commitFiring(ctx, client, locked, firing, prepared);
          await client.query(`UPDATE automations SET "queuedFireAt" = NULL WHERE "id" = $1`, [row.id]);
          return true;
        });
        if (done) return undefined;
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) return { runAgainAt: new Date() };
      // Following a new session: look again once subscribed, so that no entry between the check and now is missed.
      if (follower.follow(busy)) continue;
      await follower.next(Math.min(left, RECHECK_MS), job.signal);
    }
  } finally {
    follower.stop();
  }
}

/** Wakes a waiting run whenever entries are committed to the followed session's log. */
class SessionFollower {
  private sessionId: string | null = null;
  private unsubscribe: (() => void) | undefined;
  private pending = false;
  private wake: (() => void) | undefined;

  constructor(private readonly ctx: AppContext) {}

  /** Follows `sessionId`; true when that is a change (the caller then looks again before waiting). */
  follow(sessionId: string): boolean {
    if (this.sessionId === sessionId) return false;
    this.stop();
    this.sessionId = sessionId;
    this.pending = false;
    this.unsubscribe = subscribeSessionEvents(this.ctx, sessionId, () => {
      this.pending = true;
      this.wake?.();
    });
    return true;
  }

  /** Resolves at the next entry (or one seen since the last call), after `ms`, or rejects when `signal` aborts. */
  next(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const finish = (error?: unknown) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.wake = undefined;
        this.pending = false;
        if (error) reject(error);
        else resolve();
      };
      const onAbort = () => finish(signal.reason);
      const timer = setTimeout(() => finish(), ms);
      this.wake = () => finish();
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) onAbort();
      else if (this.pending) finish();
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.sessionId = null;
  }
}
