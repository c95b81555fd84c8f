import type { AppContext } from "../../context.js";
import { exponentialBackoff, type JobKind, type NoPayload } from "../../jobs/index.js";
import {
  commitFenced,
  type LoopSessionRow,
  SESSION_TURN_JOB,
  SessionGone,
  sessionTurnPreload,
} from "../../sessions/index.js";
import type { LoopDeps } from "../loop/deps.js";
import { errorEvent, idleEvent, toolResultEvent } from "../loop/events.js";
import { analyzeLog } from "../loop/log-state.js";
import { LOG_PAGE } from "../loop/pass.js";
import { runSessionPass } from "../loop/run-session.js";
import type { TurnSettings } from "./settings.js";
import { readAll } from "./settled.js";

/**
 * The job kind of session turns (`session.turn`, key: the session id): at most one pass runs per session at a time, on
 * any worker. A pass that throws is retried with backoff (1 s doubling up to a minute); a session whose passes keep
 * failing or killing their worker is stopped with `session.error` `session.loop_failed` after `WORKER_MAX_ATTEMPTS`.
 */
export function sessionTurnKind(ctx: AppContext, deps: LoopDeps, settings: TurnSettings): JobKind<NoPayload> {
  return {
    ...SESSION_TURN_JOB,
    concurrency: settings.concurrency,
    leaseMs: settings.leaseMs,
    retry: { maxAttempts: settings.maxAttempts, backoffMs: exponentialBackoff({ baseMs: 1_000, maxMs: 60_000 }) },
    async run(job) {
      try {
        const lease = { sessionId: job.key, token: job.lease.token, generation: job.generation };
        const preloaded = job.preloaded as LoopSessionRow | undefined;
        if (await runSessionPass(deps, lease, job.signal, preloaded)) return { released: true };
      } catch (error) {
        // Deleted while running: its job row went with it.
        if (!(error instanceof SessionGone)) throw error;
      }
      return undefined;
    },
    // The claim of a notified session reads the session and the log after the prefix this process has cached.
    preload: sessionTurnPreload((key) => deps.logCache.lastSeq(key), LOG_PAGE),
    /**
     * Too many attempts that did not complete: stop the session with an explicit error instead of retrying forever.
     * Tool uses left without a result are closed so that the next turn does not run them again.
     */
    async giveUp(job) {
      const events = await readAll(ctx, job.key);
      const unresolved = analyzeLog(events)
        .steps.flatMap((s) => s.toolUses)
        .filter((u) => !u.result);
      const message =
        `The agent loop stopped after ${job.failures} attempts that did not complete ` +
        "(the worker running this session stopped or failed each time)";
      try {
        const lease = { sessionId: job.key, token: job.lease.token };
        await commitFenced(
          ctx.db.pool,
          lease,
          () => ({
            events: [
              ...unresolved.map((u) => toolResultEvent(u, `Not completed: ${message}`, true)),
              errorEvent("session.loop_failed", message),
              idleEvent("error"),
            ],
            status: { status: "idle", stopReason: "error", pendingActions: [] },
          }),
          deps.onIdle,
        );
      } catch (error) {
        if (!(error instanceof SessionGone)) throw error;
      }
    },
  };
}
