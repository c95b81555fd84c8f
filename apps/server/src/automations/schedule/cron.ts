import { Cron } from "croner";
import cronstrue from "cronstrue";

/** A cron expression compiled for a time zone: fire times as instants. */
export interface CronSchedule {
  readonly cron: string;
  readonly timezone: string;
  /** The first fire time strictly after `after`; null when there is none. */
  next(after: Date): Date | null;
  /** The next `count` fire times strictly after `after`. */
  nextRuns(count: number, after: Date): Date[];
  /** The latest fire time at or before `at`; null when there is none. */
  latestAtOrBefore(at: Date): Date | null;
}

/** A cron expression or time zone that cannot be used; `message` says why, for a 400 issue. */
export class ScheduleError extends Error {
  constructor(
    readonly field: "cron" | "timezone",
    message: string,
  ) {
    super(message);
    this.name = "ScheduleError";
  }
}

/** The canonical IANA name of a time zone (`america/new_york` → `America/New_York`), or null when unknown. */
export function canonicalTimezone(timezone: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * Compiles a standard 5-field cron expression (croner, `mode: "5-part"`, Vixie-cron day matching) in an IANA zone.
 * Throws `ScheduleError` when the expression is invalid, the zone unknown, or the schedule never fires.
 */
export function compileCron(cron: string, timezone: string, now: Date = new Date()): CronSchedule {
  const zone = canonicalTimezone(timezone);
  if (!zone)
    throw new ScheduleError("timezone", `unknown time zone "${timezone}" (use an IANA name such as Europe/Paris)`);
  let pattern: Cron;
  let first: Date | null;
  try {
    pattern = new Cron(cron, { timezone: zone, mode: "5-part", paused: true });
    first = pattern.nextRun(now);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, "") : String(error);
    throw new ScheduleError("cron", `not a valid 5-field cron expression: ${reason}`);
  }
  if (!first) throw new ScheduleError("cron", `"${cron}" never fires`);
  return {
    cron,
    timezone: zone,
    next: (after) => pattern.nextRun(after) ?? null,
    nextRuns: (count, after) => pattern.nextRuns(count, after),
    latestAtOrBefore(at) {
      // croner's previous run is strictly before a time truncated to the second: step forward from it so that a fire
      // time equal to `at` counts, and so that previous and next agree across a DST gap.
      let latest: Date | null = pattern.previousRuns(1, at)[0] ?? null;
      for (let candidate = pattern.nextRun(latest ?? new Date(at.getTime() - 1000)); candidate; ) {
        if (candidate.getTime() > at.getTime()) break;
        latest = candidate;
        candidate = pattern.nextRun(candidate);
      }
      return latest;
    },
  };
}

/** The cron expression in English (`At 09:00 AM, Monday through Friday`). */
export function describeCron(cron: string): string {
  try {
    return cronstrue.toString(cron, { throwExceptionOnParseError: true, verbose: false });
  } catch {
    return cron;
  }
}
