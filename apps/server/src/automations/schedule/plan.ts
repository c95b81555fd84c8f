import { createHash } from "node:crypto";
import type { CronSchedule } from "./cron.js";

/** A run woken this early (the database's clock and ours may differ slightly) treats its firing as due. */
export const EARLY_SLACK_MS = 1_000;

/**
 * The jitter of one firing: a stable pseudo-random delay in [0, jitterSeconds) seconds derived from the automation and
 * the schedule time (so every worker computes the same due time, and a retried firing keeps it), capped so that a
 * firing is always due before the next schedule time: firings stay in order.
 */
export function jitterMs(automationId: string, scheduledFor: Date, jitterSeconds: number, next: Date | null): number {
  if (jitterSeconds <= 0) return 0;
  const gapMs = next ? next.getTime() - scheduledFor.getTime() - 1_000 : Number.POSITIVE_INFINITY;
  const maxMs = Math.min(jitterSeconds * 1_000, gapMs);
  if (maxMs <= 0) return 0;
  const hash = createHash("sha256").update(`${automationId}|${scheduledFor.toISOString()}`).digest();
  return Math.floor((hash.readUInt32BE(0) / 2 ** 32) * maxMs);
}

/** When the firing for `scheduledFor` is due: the schedule time plus its jitter. */
export function dueTime(schedule: CronSchedule, automationId: string, jitterSeconds: number, scheduledFor: Date): Date {
  const jitter = jitterMs(automationId, scheduledFor, jitterSeconds, schedule.next(scheduledFor));
  return new Date(scheduledFor.getTime() + jitter);
}

export type FiringPlan =
  /** Not due yet (woken early, or the schedule moved): come back then. */
  | { kind: "wait"; until: Date }
  /**
   * Fire for `scheduledFor`, then arm `next` (null: the schedule never fires again). `missed` counts the schedule times
   * skipped by catch-up: when no worker ran for a while, only the latest time whose due time has passed fires.
   */
  | { kind: "fire"; scheduledFor: Date; missed: number; next: Date | null };

/**
 * What the schedule does at `now`, given the schedule time its automation is armed for. Catch-up policy: of the
 * schedule times whose due time has passed, only the latest fires; the schedule then resumes after it.
 */
export function planFiring(
  schedule: CronSchedule,
  automationId: string,
  jitterSeconds: number,
  armedFor: Date,
  now: Date,
): FiringPlan {
  const due = dueTime(schedule, automationId, jitterSeconds, armedFor);
  if (due.getTime() > now.getTime() + EARLY_SLACK_MS) return { kind: "wait", until: due };
  const at = new Date(Math.max(now.getTime(), due.getTime()));
  let fireFor = armedFor;
  const latest = schedule.latestAtOrBefore(at);
  if (latest && latest.getTime() > armedFor.getTime()) {
    if (dueTime(schedule, automationId, jitterSeconds, latest).getTime() <= at.getTime()) fireFor = latest;
    else {
      // Its jitter has not elapsed yet; the time before it is past due (jitter never reaches the next time).
      const before = schedule.latestAtOrBefore(new Date(latest.getTime() - 1));
      if (before && before.getTime() > armedFor.getTime()) fireFor = before;
    }
  }
  return {
    kind: "fire",
    scheduledFor: fireFor,
    missed: fireFor === armedFor ? 0 : countBetween(schedule, armedFor, fireFor),
    next: schedule.next(fireFor),
  };
}

/** Schedule times from `from` (included) to `to` (excluded), counted up to 1000 (for the log line). */
function countBetween(schedule: CronSchedule, from: Date, to: Date): number {
  let count = 0;
  for (let t: Date | null = from; t && t.getTime() < to.getTime() && count < 1_000; t = schedule.next(t)) count++;
  return count;
}
