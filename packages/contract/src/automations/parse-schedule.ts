import { z } from "zod";
import { Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { TimezoneSchema } from "./trigger.js";

export const ParseScheduleSchema = z
  .object({
    text: z
      .string()
      .trim()
      .min(1)
      .max(LIMITS.automationScheduleTextLength)
      .describe(
        "An English description: `every 15 minutes`, `hourly`, `every weekday at 9am`, `daily at 18:30`, " +
          "`mondays and thursdays at noon`, `on the 1st of every month at 08:00`, `every sunday at midnight`… It may " +
          "end with a time zone (`in Europe/Paris`, `UTC`)",
      ),
    timezone: TimezoneSchema.optional().describe(
      "IANA time zone of the schedule; default: the zone named in `text`, else `UTC`",
    ),
  })
  .strict();

export const ParsedScheduleSchema = z
  .object({
    cron: z.string().describe("Standard 5-field cron expression, ready for `trigger.cron`"),
    timezone: z.string().describe("Canonical IANA zone, ready for `trigger.timezone`"),
    description: z.string().describe("The cron expression described in English"),
    nextRuns: z
      .array(Timestamp)
      .describe(`The next ${LIMITS.automationNextRuns} fire times (UTC, before jitter), from now`),
  })
  .describe("A schedule understood from English");

export type ParseScheduleInput = z.infer<typeof ParseScheduleSchema>;
export type ParsedSchedule = z.infer<typeof ParsedScheduleSchema>;
