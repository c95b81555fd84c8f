import type { AppContext } from "../context.js";
import { newId } from "../ids.js";
import {
  enqueueJob,
  type JobKind,
  type JobOutcome,
  type NoPayload,
  RETRY_FOREVER,
  type RunningJob,
} from "../jobs/index.js";
import { sameRevision } from "./automation-row.js";
import { loadAutomation } from "./automation-store.js";
import { commitFiring, recordError } from "./firing/commit-firing.js";
import { previousSessionAtWork } from "./firing/overlap.js";
import { prepareFiring } from "./firing/prepare-firing.js";
import { QUEUED_JOB, SCHEDULE_JOB } from "./job-types.js";
import { dueTime, planFiring } from "./schedule/plan.js";
import { rowSchedule } from "./schedule-settings.js";

/** Attempts at one firing when the automation is edited while it is being prepared. */
const MAX_PREPARATIONS = 5;

/**
 * The schedule of an automation (`automation.schedule`, key: the automation id): one job per automation, due at its
 * next schedule time plus jitter, so the job core's one-run-per-key and lease fencing make each firing happen on one
 * worker however many run. A run fires (or records the skip of) the firing due, advances `nextFireAt` in the same
 * transaction, and asks to run again at the next due time. It never gives up: a failure (the database unreachable)
 * is retried with backoff up to a minute, and the firing is idempotent (one run per schedule time).
 */
export function automationScheduleKind(ctx: AppContext, concurrency: number, leaseMs: number): JobKind<NoPayload> {
  return {
    ...SCHEDULE_JOB,
    concurrency,
    leaseMs,
    retry: RETRY_FOREVER,
    run: (job) => fireSchedule(ctx, job),
  };
}

async function fireSchedule(ctx: AppContext, job: RunningJob<NoPayload>): Promise<JobOutcome> {
  for (let attempt = 0; attempt < MAX_PREPARATIONS; attempt++) {
    const row = await loadAutomation(ctx.db.pool, job.key);
    const schedule = row?.enabled && row.nextFireAt ? rowSchedule(row) : null;
    if (!row?.nextFireAt || !schedule) return undefined;
    const jitter = row.jitterSeconds ?? 0;
    const plan = planFiring(schedule, row.id, jitter, row.nextFireAt, new Date());
    if (plan.kind === "wait") return { runAgainAt: plan.until };
    if (plan.missed > 0) {
      job.logger.warn(
        { automationId: row.id, missed: plan.missed, from: row.nextFireAt, firing: plan.scheduledFor },
        "automation: firings missed while no worker ran; catching up with the latest only",
      );
    }
    const prepared = await prepareFiring(ctx, row, job.logger);
    const fired = await job.fenced(async (client) => {
      const locked = await loadAutomation(client, row.id, "update");
      if (!locked || !sameRevision(locked, row, "nextFireAt")) return false;
      const firing = {
        runId: newId("automationRun"),
        triggerKind: "schedule" as const,
        scheduledFor: plan.scheduledFor,
      };
      const busy = locked.overlap === "allow" ? null : await previousSessionAtWork(client, locked.id);
      if (!busy) {
        await commitFiring(ctx, client, locked, firing, prepared);
      } else if (locked.overlap === "queue_one" && !locked.queuedFireAt) {
        await client.query(`UPDATE automations SET "queuedFireAt" = $2 WHERE "id" = $1`, [
          locked.id,
          firing.scheduledFor,
        ]);
        await enqueueJob(client, QUEUED_JOB, { key: locked.id });
      } else {
        const why =
          locked.overlap === "queue_one"
            ? `a firing (for ${locked.queuedFireAt!.toISOString()}) already waits for session ${busy} to finish (overlap: queue_one)`
            : `session ${busy} of the previous firing is still at work (overlap: skip)`;
        await recordError(ctx, client, locked, firing, `Skipped: ${why}`);
      }
      await client.query(`UPDATE automations SET "nextFireAt" = $2 WHERE "id" = $1`, [locked.id, plan.next]);
      return true;
    });
    if (!fired) continue;
    return plan.next ? { runAgainAt: dueTime(schedule, row.id, jitter, plan.next) } : undefined;
  }
  throw new Error(`automation ${job.key} changed during each of ${MAX_PREPARATIONS} attempts to fire it`);
}
