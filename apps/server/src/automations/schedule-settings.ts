import type { TriggerInput } from "@agent-platform/contract";
import type pg from "pg";
import { invalidRequest } from "../http/error-envelope.js";
import { cancelJob, enqueueJob } from "../jobs/index.js";
import type { AutomationRow } from "./automation-row.js";
import { QUEUED_JOB, SCHEDULE_JOB } from "./job-types.js";
import { type CronSchedule, compileCron, ScheduleError } from "./schedule/cron.js";
import { dueTime } from "./schedule/plan.js";

type Queryable = Pick<pg.PoolClient, "query">;

/** The trigger as stored: the columns of `automations` it fills. */
export interface TriggerColumns {
  triggerType: "schedule" | "manual";
  cron: string | null;
  timezone: string | null;
  overlap: "skip" | "allow" | "queue_one" | null;
  jitterSeconds: number | null;
}

export const DEFAULT_OVERLAP = "skip";
export const DEFAULT_JITTER_SECONDS = 0;

/** Validates a trigger (cron expression and time zone: 400 at `body.trigger.<field>`) and fills its defaults. */
export function triggerColumns(trigger: TriggerInput): TriggerColumns {
  if (trigger.type === "manual") {
    return { triggerType: "manual", cron: null, timezone: null, overlap: null, jitterSeconds: null };
  }
  const schedule = compileOrRefuse(trigger.cron, trigger.timezone);
  return {
    triggerType: "schedule",
    cron: schedule.cron,
    timezone: schedule.timezone,
    overlap: trigger.overlap ?? DEFAULT_OVERLAP,
    jitterSeconds: trigger.jitterSeconds ?? DEFAULT_JITTER_SECONDS,
  };
}

function compileOrRefuse(cron: string, timezone: string): CronSchedule {
  try {
    return compileCron(cron, timezone);
  } catch (error) {
    if (error instanceof ScheduleError) {
      throw invalidRequest([{ path: `body.trigger.${error.field}`, message: error.message }]);
    }
    throw error;
  }
}

/** The compiled schedule of a stored row; null for a manual trigger. */
export function rowSchedule(row: Pick<AutomationRow, "triggerType" | "cron" | "timezone">): CronSchedule | null {
  return row.triggerType === "schedule" && row.cron && row.timezone ? compileCron(row.cron, row.timezone) : null;
}

/** The schedule time an enabled schedule is armed for, from `now`; null when it does not fire. */
export function firstFireTime(
  row: Pick<AutomationRow, "triggerType" | "cron" | "timezone" | "enabled">,
  now: Date = new Date(),
): Date | null {
  if (!row.enabled) return null;
  return rowSchedule(row)?.next(now) ?? null;
}

/**
 * Arms the automation's schedule job at its next due time (schedule time plus jitter), or removes it when the row has
 * no next firing (disabled, manual, deleted); a `queue_one` firing still waiting goes too when the policy no longer
 * applies. Call it in the transaction that writes the row: both commit together. A run in progress whose job is removed
 * meanwhile commits nothing (its lease is gone).
 */
export async function armSchedule(client: Queryable, row: AutomationRow): Promise<void> {
  const schedule = row.nextFireAt ? rowSchedule(row) : null;
  if (schedule && row.nextFireAt) {
    const runAt = dueTime(schedule, row.id, row.jitterSeconds ?? 0, row.nextFireAt);
    await enqueueJob(client, SCHEDULE_JOB, { key: row.id, runAt });
  } else {
    await cancelJob(client, SCHEDULE_JOB, row.id);
  }
  if (!row.nextFireAt || row.overlap !== "queue_one") await cancelJob(client, QUEUED_JOB, row.id);
}
