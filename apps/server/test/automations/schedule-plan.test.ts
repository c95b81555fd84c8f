import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileCron } from "../../src/automations/schedule/cron.js";
import { dueTime, EARLY_SLACK_MS, jitterMs, planFiring } from "../../src/automations/schedule/plan.js";

const at = (s: string) => new Date(s);
const ID = "auto_0000000000testtesttesttest";

describe("jitter", () => {
  const everyMinute = compileCron("* * * * *", "UTC");

  it("is 0 without jitterSeconds", () => {
    expect(jitterMs(ID, at("2025-01-01T10:00:00Z"), 0, at("2025-01-01T10:01:00Z"))).toBe(0);
  });

  it("is stable for an automation and a schedule time, and differs between automations", () => {
    const s = at("2025-01-01T10:00:00Z");
    const next = at("2025-01-01T11:00:00Z");
    expect(jitterMs(ID, s, 600, next)).toBe(jitterMs(ID, s, 600, next));
    const spread = new Set(Array.from({ length: 50 }, (_, i) => jitterMs(`auto_${i}`, s, 600, next)));
    expect(spread.size).toBeGreaterThan(40);
  });

  it("stays within [0, jitterSeconds) and before the next schedule time, so firings stay in order", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 3600 }),
        fc.date({ min: at("2020-01-01T00:00:00Z"), max: at("2030-01-01T00:00:00Z"), noInvalidDate: true }),
        (id, jitterSeconds, from) => {
          const s = everyMinute.next(from)!;
          const next = everyMinute.next(s)!;
          const j = jitterMs(id, s, jitterSeconds, next);
          expect(j).toBeGreaterThanOrEqual(0);
          expect(j).toBeLessThanOrEqual(Math.max(0, jitterSeconds * 1000));
          expect(s.getTime() + j).toBeLessThan(next.getTime());
          expect(dueTime(everyMinute, id, jitterSeconds, s).getTime()).toBeLessThan(
            dueTime(everyMinute, id, jitterSeconds, next).getTime(),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("planFiring (a controllable clock)", () => {
  const hourly = compileCron("0 * * * *", "UTC");
  const armed = at("2025-01-01T10:00:00Z");

  it("waits until the due time when woken early", () => {
    expect(planFiring(hourly, ID, 0, armed, at("2025-01-01T09:59:00Z"))).toEqual({
      kind: "wait",
      until: armed,
    });
  });

  it("fires when due, within the early slack of clocks, then arms the next schedule time", () => {
    for (const now of [new Date(armed.getTime() - EARLY_SLACK_MS + 1), armed, at("2025-01-01T10:00:00.400Z")]) {
      expect(planFiring(hourly, ID, 0, armed, now)).toEqual({
        kind: "fire",
        scheduledFor: armed,
        missed: 0,
        next: at("2025-01-01T11:00:00Z"),
      });
    }
  });

  it("waits for its jitter, then fires for the schedule time (not the jittered one)", () => {
    const due = dueTime(hourly, ID, 900, armed);
    expect(due.getTime()).toBeGreaterThan(armed.getTime());
    expect(planFiring(hourly, ID, 900, armed, armed)).toEqual({ kind: "wait", until: due });
    const plan = planFiring(hourly, ID, 900, armed, due);
    expect(plan).toMatchObject({ kind: "fire", scheduledFor: armed, missed: 0 });
  });

  it("catches up once, for the latest missed time, after the scheduler was down for hours", () => {
    const plan = planFiring(hourly, ID, 0, armed, at("2025-01-01T15:20:00Z"));
    expect(plan).toEqual({
      kind: "fire",
      scheduledFor: at("2025-01-01T15:00:00Z"),
      missed: 5,
      next: at("2025-01-01T16:00:00Z"),
    });
  });

  it("with jitter, catches up with the latest time whose jittered due time has passed", () => {
    const everyMinute = compileCron("* * * * *", "UTC");
    const now = at("2025-01-01T12:00:01Z");
    const latest = at("2025-01-01T12:00:00Z");
    const plan = planFiring(everyMinute, ID, 59, at("2025-01-01T10:00:00Z"), now);
    if (plan.kind !== "fire") throw new Error("expected a firing");
    const latestDue = dueTime(everyMinute, ID, 59, latest);
    expect(plan.scheduledFor).toEqual(latestDue.getTime() <= now.getTime() ? latest : at("2025-01-01T11:59:00Z"));
    expect(plan.missed).toBeGreaterThan(100);
  });

  it("keeps a DST-shifted firing: a daily 02:30 in New York on the spring-forward day", () => {
    const daily = compileCron("30 2 * * *", "America/New_York");
    const armedBefore = at("2025-03-08T07:30:00Z"); // 02:30 EST the day before
    // The scheduler was down from then until after the shifted firing (03:00 EDT = 07:00Z) of the 9th.
    const plan = planFiring(daily, ID, 0, armedBefore, at("2025-03-09T08:00:00Z"));
    expect(plan).toEqual({
      kind: "fire",
      scheduledFor: at("2025-03-09T07:00:00Z"),
      missed: 1,
      next: at("2025-03-10T06:30:00Z"),
    });
  });
});
