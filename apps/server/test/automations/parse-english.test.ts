import { describe, expect, it } from "vitest";
import { parseEnglishSchedule, UnparseableSchedule } from "../../src/automations/schedule/parse-english.js";

describe("English schedules to cron", () => {
  it.each([
    ["every weekday at 9am", "0 9 * * 1-5"],
    ["Every weekday at 9 AM", "0 9 * * 1-5"],
    ["every 15 minutes", "*/15 * * * *"],
    ["every minute", "* * * * *"],
    ["daily at 18:30", "30 18 * * *"],
    ["every day at 6.45pm", "45 18 * * *"],
    ["mondays and thursdays at noon", "0 12 * * 1,4"],
    ["on monday, wednesday and friday at 10:00", "0 10 * * 1,3,5"],
    ["on the 1st of every month at 08:00", "0 8 1 * *"],
    ["on the 1st and 15th of each month at 9am", "0 9 1,15 * *"],
    ["on the last day of every month at 18:00", "0 18 L * *"],
    ["monthly on the 15th at 9am", "0 9 15 * *"],
    ["monthly", "0 0 1 * *"],
    ["every sunday at midnight", "0 0 * * 0"],
    ["every hour", "0 * * * *"],
    ["hourly at 15 minutes past", "15 * * * *"],
    ["every 2 hours", "0 */2 * * *"],
    ["every 2 hours between 8am and 6pm", "0 8-17/2 * * *"],
    ["every 30 minutes between 9am and 5pm on weekdays", "*/30 9-16 * * 1-5"],
    ["at 9am and 5pm", "0 9,17 * * *"],
    ["every day", "0 0 * * *"],
    ["weekends at 10:30", "30 10 * * 0,6"],
    ["every tue at 7pm", "0 19 * * 2"],
  ])("%s → %s", (text, cron) => {
    expect(parseEnglishSchedule(text)).toEqual({ cron, timezone: null });
  });

  it.each([
    ["every weekday at 9am in Europe/Paris", "Europe/Paris"],
    ["daily at 18:30 America/New_York", "America/New_York"],
    ["every hour UTC", "UTC"],
    ["every day at noon (Asia/Tokyo)", "Asia/Tokyo"],
  ])("reads the time zone at the end of %s", (text, timezone) => {
    expect(parseEnglishSchedule(text).timezone).toBe(timezone);
  });

  it.each([
    ["whenever you like", /could not understand/],
    ["every 7 minutes", /does not divide an hour/],
    ["every 5 hours", /does not divide a day/],
    ["every 30 seconds", /once a minute/],
    ["every 3 days", /every N days/],
    ["at 9:30 and 17:00", /share their minutes/],
    ["at 25:00", /hours/],
    ["at 13pm", /am\/pm/],
    ["on the 32nd of every month", /days of the month/],
    ["every 15 minutes at 9am", /interval or times/],
    ["on the 1st of every month on mondays", /both days of the month and days of the week/],
    ["", /no schedule/],
  ])("refuses %s", (text, reason) => {
    expect(() => parseEnglishSchedule(text)).toThrow(UnparseableSchedule);
    expect(() => parseEnglishSchedule(text)).toThrow(reason);
  });

  it("is deterministic", () => {
    const text = "mondays and thursdays at noon in Europe/Berlin";
    expect(parseEnglishSchedule(text)).toEqual(parseEnglishSchedule(text));
  });
});
