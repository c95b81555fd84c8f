import { LIMITS, type ParsedSchedule, type ParseScheduleInput } from "@agent-platform/contract";
import { AppError } from "../http/app-error.js";
import { invalidRequest } from "../http/error-envelope.js";
import { canonicalTimezone, compileCron, describeCron, ScheduleError } from "./schedule/cron.js";
import { parseEnglishSchedule, UnparseableSchedule } from "./schedule/parse-english.js";

function unparseable(text: string, why: string): AppError {
  return new AppError("automation.unparseable_schedule", `Could not read a schedule from "${text}": ${why}`);
}

/**
 * `POST …/automations/parse-schedule`: English to cron, deterministically. The zone is `timezone` when sent (unknown:
 * 400 at `body.timezone`), else the one the text ends with, else UTC; a text naming another zone than `timezone` is
 * ambiguous (422).
 */
export function parseSchedule(input: ParseScheduleInput, now: Date = new Date()): ParsedSchedule {
  let parsed: ReturnType<typeof parseEnglishSchedule>;
  try {
    parsed = parseEnglishSchedule(input.text);
  } catch (error) {
    if (error instanceof UnparseableSchedule) throw unparseable(input.text, error.message);
    throw error;
  }
  const sent = input.timezone === undefined ? null : canonicalTimezone(input.timezone);
  if (input.timezone !== undefined && !sent) {
    throw invalidRequest([{ path: "body.timezone", message: `unknown time zone "${input.timezone}"` }]);
  }
  const named = parsed.timezone === null ? null : canonicalTimezone(parsed.timezone);
  if (parsed.timezone !== null && !named) throw unparseable(input.text, `unknown time zone "${parsed.timezone}"`);
  if (sent && named && sent !== named) {
    throw unparseable(input.text, `it names the time zone ${named} but \`timezone\` is ${sent}`);
  }
  const timezone = sent ?? named ?? "UTC";
  try {
    const schedule = compileCron(parsed.cron, timezone, now);
    return {
      cron: parsed.cron,
      timezone: schedule.timezone,
      description: describeCron(parsed.cron),
      nextRuns: schedule.nextRuns(LIMITS.automationNextRuns, now).map((d) => d.toISOString()),
    };
  } catch (error) {
    if (error instanceof ScheduleError) throw unparseable(input.text, error.message);
    throw error;
  }
}
