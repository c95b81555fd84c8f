import { z } from "zod";
import { LIMITS } from "../common/limits.js";

export const OverlapPolicySchema = z
  .enum(["skip", "allow", "queue_one"])
  .describe(
    "What a scheduled firing does while the session of the previous firing is still at work (running a turn, or " +
      "its turn not yet started): `skip` (default) records the firing as a run with `status: error` and creates no " +
      "session; `allow` fires anyway (sessions run side by side); `queue_one` fires as soon as that session is done, " +
      "keeping at most one firing waiting (a further firing meanwhile is recorded as skipped). A session that waits " +
      "for a confirmation or a custom tool result is not at work.",
  );

export const CronExpressionSchema = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.automationCronLength)
  .describe(
    "Standard 5-field cron: minute hour day-of-month month day-of-week (0 or 7 = Sunday), with lists (`1,15`), " +
      "ranges (`1-5`), steps (`*/15`) and names (`MON`, `JAN`); when both day fields are restricted a day matching " +
      "either fires (Vixie cron). Also accepted: `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`, `L` (last " +
      "day of the month), `W` (nearest weekday) and `#` (`MON#1`: first Monday). Evaluated in `timezone`. Invalid, " +
      "or never firing (`0 0 30 2 *`), is 400 `request.invalid` at `body.trigger.cron`.",
  );

export const TimezoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.automationTimezoneLength)
  .describe(
    "IANA time zone (`Europe/Paris`, `America/New_York`, `UTC`); stored and returned in its canonical spelling. " +
      "Unknown zone: 400 `request.invalid` at `body.trigger.timezone`.",
  );

export const JitterSecondsSchema = z
  .number()
  .int()
  .min(0)
  .max(LIMITS.automationJitterSecondsMax)
  .describe(
    `Delays each firing by a stable pseudo-random amount from 0 to this many seconds (0 to ${LIMITS.automationJitterSecondsMax}, ` +
      "default 0), to spread automations that share a schedule; never past the next scheduled time.",
  );

const DST_AND_CATCH_UP =
  "Daylight saving time: a local time that does not exist (spring forward) fires once at the first valid time " +
  "after the gap (02:30 on a 02:00→03:00 night fires at 03:00); a local time that happens twice (fall back) fires " +
  "once, at its first occurrence; schedules with a wildcard or stepped hour (`*/15 * * * *`, `0 * * * *`) keep " +
  "firing through both repeated hours. Firings missed while no worker ran are caught up with one firing, for the " +
  "latest missed time, then the schedule resumes.";

export const ScheduleTriggerInputSchema = z
  .object({
    type: z.literal("schedule"),
    cron: CronExpressionSchema,
    timezone: TimezoneSchema,
    overlap: OverlapPolicySchema.optional().describe("Default `skip`"),
    jitterSeconds: JitterSecondsSchema.optional(),
  })
  .strict()
  .describe(`Fires on a cron schedule in a time zone. ${DST_AND_CATCH_UP}`);

export const ManualTriggerSchema = z
  .object({ type: z.literal("manual") })
  .strict()
  .describe("Fires only through `POST …/automations/:id/run`");

export const TriggerInputSchema = z
  .discriminatedUnion("type", [ScheduleTriggerInputSchema, ManualTriggerSchema])
  .describe("`schedule` (cron) or `manual`; manual runs are possible with either");

export const ScheduleTriggerSchema = z
  .object({
    type: z.literal("schedule"),
    cron: z.string(),
    timezone: z.string(),
    overlap: OverlapPolicySchema,
    jitterSeconds: z.number().int(),
  })
  .describe(`A cron schedule with its defaults filled in. ${DST_AND_CATCH_UP}`);

export const TriggerSchema = z.discriminatedUnion("type", [
  ScheduleTriggerSchema,
  z.object({ type: z.literal("manual") }).describe("Fires only through `POST …/automations/:id/run`"),
]);

export type OverlapPolicy = z.infer<typeof OverlapPolicySchema>;
export type TriggerInput = z.infer<typeof TriggerInputSchema>;
export type Trigger = z.infer<typeof TriggerSchema>;
export type ScheduleTrigger = z.infer<typeof ScheduleTriggerSchema>;
