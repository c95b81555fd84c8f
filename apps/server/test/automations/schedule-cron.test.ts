import { describe, expect, it } from "vitest";
import { canonicalTimezone, compileCron, describeCron, ScheduleError } from "../../src/automations/schedule/cron.js";

const iso = (d: Date | null) => d?.toISOString() ?? null;
const at = (s: string) => new Date(s);
function nextN(cron: string, tz: string, from: string, n: number): string[] {
  return compileCron(cron, tz, at(from))
    .nextRuns(n, at(from))
    .map((d) => d.toISOString());
}

describe("cron dialect", () => {
  it("accepts standard 5-field expressions, names, nicknames and the L/W/# extensions", () => {
    for (const cron of [
      "*/15 * * * *",
      "0 9 * * 1-5",
      "0 12 * * MON,THU",
      "0 0 1 JAN *",
      "@daily",
      "0 0 L * *",
      "0 9 * * MON#1",
    ]) {
      expect(() => compileCron(cron, "UTC")).not.toThrow();
    }
  });

  it.each([
    ["* * * *", /exactly five/],
    ["* * * * * *", /5 parts/],
    ["61 * * * *", /minute/],
    ["0 25 * * *", /hour/],
    ["nonsense", /five/],
    ["0 0 30 2 *", /never fires/],
  ])("refuses %s with a reason", (cron, reason) => {
    let error: unknown;
    try {
      compileCron(cron, "UTC");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScheduleError);
    expect((error as ScheduleError).field).toBe("cron");
    expect((error as Error).message).toMatch(reason);
  });

  it("matches day-of-month or day-of-week when both are restricted (Vixie cron)", () => {
    // The 13th of the month, or any Friday.
    expect(nextN("0 0 13 * 5", "UTC", "2025-06-01T00:00:00Z", 3)).toEqual([
      "2025-06-06T00:00:00.000Z",
      "2025-06-13T00:00:00.000Z",
      "2025-06-20T00:00:00.000Z",
    ]);
  });

  it("validates IANA zones and returns their canonical spelling", () => {
    expect(canonicalTimezone("america/new_york")).toBe("America/New_York");
    expect(canonicalTimezone("utc")).toBe("UTC");
    expect(canonicalTimezone("Mars/Olympus_Mons")).toBeNull();
    expect(compileCron("0 9 * * *", "europe/paris").timezone).toBe("Europe/Paris");
    expect(() => compileCron("0 9 * * *", "Mars/Olympus_Mons")).toThrow(/unknown time zone/);
    try {
      compileCron("0 9 * * *", "+02:00");
    } catch (e) {
      expect((e as ScheduleError).field).toBe("timezone");
    }
  });

  it("describes expressions in English", () => {
    expect(describeCron("0 9 * * 1-5")).toBe("At 09:00 AM, Monday through Friday");
    expect(describeCron("*/15 * * * *")).toBe("Every 15 minutes");
  });
});

describe("time zones and daylight saving time", () => {
  it("evaluates the expression in its zone", () => {
    expect(nextN("0 9 * * *", "Asia/Tokyo", "2024-12-31T12:00:00Z", 2)).toEqual([
      "2025-01-01T00:00:00.000Z",
      "2025-01-02T00:00:00.000Z",
    ]);
    expect(nextN("30 9 * * *", "Asia/Kolkata", "2025-01-01T00:00:00Z", 1)).toEqual(["2025-01-01T04:00:00.000Z"]);
  });

  describe.each([
    // zone, spring-forward night (local 02:00 → 03:00 unless noted), the gap's first valid local time in UTC
    ["America/New_York", "2025-03-09", "2025-03-09T07:00:00.000Z"],
    ["Europe/Paris", "2025-03-30", "2025-03-30T01:00:00.000Z"],
  ])("spring forward in %s", (zone, day, firstAfterGap) => {
    it("a daily time inside the gap fires once, at the first valid time after it, and then as usual", () => {
      const runs = nextN("30 2 * * *", zone, `${day}T00:00:00Z`, 3);
      expect(runs[0]).toBe(firstAfterGap);
      expect(new Set(runs).size).toBe(3);
      // The next days are back at 02:30 local (one hour less of UTC offset than the day before the change).
      const dayAfter = new Date(runs[1]!);
      const local = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit" });
      expect(local.format(dayAfter)).toBe("02:30");
    });

    it("an hourly schedule skips the hour that does not exist and never repeats a time", () => {
      const runs = nextN("0 * * * *", zone, `${day}T00:00:00Z`, 6).map((s) => Date.parse(s));
      for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBe(3_600_000);
    });
  });

  it("spring forward in Australia/Sydney (southern hemisphere, October)", () => {
    // 2025-10-05 02:00 AEST → 03:00 AEDT; 02:30 does not exist.
    expect(nextN("30 2 * * *", "Australia/Sydney", "2025-10-04T12:00:00Z", 2)).toEqual([
      "2025-10-04T16:00:00.000Z", // 03:00 AEDT
      "2025-10-05T15:30:00.000Z", // 02:30 AEDT the next day
    ]);
  });

  describe.each([
    // zone, fall-back day, the first occurrence of 01:30 local in UTC, its second occurrence
    ["America/New_York", "2025-11-02", "2025-11-02T05:30:00.000Z", "2025-11-02T06:30:00.000Z"],
    ["Europe/London", "2025-10-26", "2025-10-26T00:30:00.000Z", "2025-10-26T01:30:00.000Z"],
  ])("fall back in %s", (zone, _day, first, second) => {
    it("a daily time that happens twice fires once, at its first occurrence", () => {
      const runs = nextN("30 1 * * *", zone, new Date(Date.parse(first) - 3_600_000).toISOString(), 2);
      expect(runs[0]).toBe(first);
      expect(runs).not.toContain(second);
      expect(Date.parse(runs[1]!) - Date.parse(first)).toBe(25 * 3_600_000);
    });

    it("a stepped schedule keeps firing through both repeated hours", () => {
      const from = new Date(Date.parse(first) - 30 * 60_000).toISOString();
      const runs = nextN("*/30 * * * *", zone, from, 4);
      expect(runs).toEqual([
        first,
        new Date(Date.parse(first) + 30 * 60_000).toISOString(),
        second,
        new Date(Date.parse(second) + 30 * 60_000).toISOString(),
      ]);
    });
  });
});

describe("latestAtOrBefore", () => {
  const every5 = compileCron("*/5 * * * *", "UTC");

  it("includes a fire time equal to the instant and excludes later ones", () => {
    expect(iso(every5.latestAtOrBefore(at("2025-01-01T10:05:00.000Z")))).toBe("2025-01-01T10:05:00.000Z");
    expect(iso(every5.latestAtOrBefore(at("2025-01-01T10:04:59.999Z")))).toBe("2025-01-01T10:00:00.000Z");
    expect(iso(every5.latestAtOrBefore(at("2025-01-01T10:09:59.500Z")))).toBe("2025-01-01T10:05:00.000Z");
  });

  it("agrees with next() across a spring-forward gap", () => {
    const daily = compileCron("30 2 * * *", "America/New_York");
    // The firing of 2025-03-09 is at 03:00 EDT (07:00Z); just after it, it is the latest.
    expect(iso(daily.latestAtOrBefore(at("2025-03-09T07:10:00Z")))).toBe("2025-03-09T07:00:00.000Z");
    expect(iso(daily.latestAtOrBefore(at("2025-03-10T12:00:00Z")))).toBe("2025-03-10T06:30:00.000Z");
  });
});
