import type { Scorer } from "@agent-platform/contract";
import { describe, expect, it } from "vitest";
import type { CaseRun } from "../../src/scoring/run-scorers.js";
import { type Judge, ScoringFailed, scoreOutput } from "../../src/scoring/score-output.js";
import { scoreTrajectory } from "../../src/scoring/trajectory.js";

const noJudge: Judge = async () => {
  throw new Error("no judge in this test");
};
const lookup = (city: string, extra: Record<string, unknown> = {}) => ({ name: "lookup", input: { city, ...extra } });
const convert = { name: "convert", input: { unit: "km" } };
const expected = [
  { name: "lookup", arguments: { city: "Paris" } },
  { name: "convert", arguments: { unit: "km" } },
];

describe("trajectory verdicts", () => {
  it("exact: the same calls in order pass with F1 1; arguments match by subset", () => {
    const verdict = scoreTrajectory(expected, [lookup("Paris", { lang: "fr" }), convert], "exact");
    expect(verdict).toEqual({ passed: true, metrics: { precision: 1, recall: 1, f1: 1 }, reason: null });
  });

  it("an extra tool fails exact but not in_order or any_order; precision drops", () => {
    const made = [lookup("Paris"), { name: "search", input: {} }, convert];
    const exact = scoreTrajectory(expected, made, "exact");
    expect(exact.passed).toBe(false);
    expect(exact.reason).toContain("extra search");
    for (const mode of ["in_order", "any_order"] as const) {
      const verdict = scoreTrajectory(expected, made, mode);
      expect(verdict.passed).toBe(true);
      expect(verdict.metrics.precision).toBeCloseTo(2 / 3);
      expect(verdict.metrics.recall).toBe(1);
      expect(verdict.metrics.f1).toBeCloseTo(0.8);
    }
  });

  it("a missing tool fails every mode; recall drops", () => {
    for (const mode of ["exact", "in_order", "any_order"] as const) {
      const verdict = scoreTrajectory(expected, [lookup("Paris")], mode);
      expect(verdict).toMatchObject({ passed: false, metrics: { precision: 1, recall: 0.5 } });
      expect(verdict.reason).toBe("missing convert");
    }
  });

  it("the wrong order fails exact and in_order, passes any_order", () => {
    const made = [convert, lookup("Paris")];
    for (const mode of ["exact", "in_order"] as const) {
      const verdict = scoreTrajectory(expected, made, mode);
      expect(verdict.passed).toBe(false);
      expect(verdict.reason).toBe("wrong order: expected lookup, convert, called convert, lookup");
    }
    expect(scoreTrajectory(expected, made, "any_order")).toMatchObject({ passed: true, metrics: { f1: 1 } });
  });

  it("an argument mismatch is neither a match nor silent", () => {
    const verdict = scoreTrajectory(expected, [lookup("Lyon"), convert], "in_order");
    expect(verdict).toMatchObject({ passed: false, metrics: { precision: 0.5, recall: 0.5, f1: 0.5 } });
    expect(verdict.reason).toBe('lookup called with other arguments (expected {"city":"Paris"}, got {"city":"Lyon"})');
  });

  it("no calls expected and none made passes; nested arguments compare deeply", () => {
    expect(scoreTrajectory([], [], "exact")).toMatchObject({ passed: true, metrics: { f1: 1 } });
    const nested = [{ name: "q", arguments: { filter: { tags: ["a", "b"] } } }];
    expect(
      scoreTrajectory(nested, [{ name: "q", input: { filter: { tags: ["a", "b"] }, n: 1 } }], "exact").passed,
    ).toBe(true);
    expect(scoreTrajectory(nested, [{ name: "q", input: { filter: { tags: ["b", "a"] } } }], "exact").passed).toBe(
      false,
    );
  });
});

const run: CaseRun = { toolCalls: [lookup("Paris"), convert], modelCalls: 3, costUsd: 0.002, latencyMs: 1500 };

async function score(scorer: Scorer, withRun: CaseRun = run) {
  const [result] = await scoreOutput(
    [scorer],
    { input: "q", expected: null, output: "a", run: withRun, expectedTools: expected },
    noJudge,
  );
  return result!;
}

describe("run scorers through scoreOutput", () => {
  it("trajectory reports its metrics; a case without expectedTools fails saying so", async () => {
    expect(await score({ type: "trajectory", mode: "exact" })).toEqual({
      type: "trajectory",
      score: 1,
      passed: true,
      reason: null,
      trajectory: { precision: 1, recall: 1, f1: 1 },
    });
    const [none] = await scoreOutput(
      [{ type: "trajectory", mode: "in_order" }],
      { input: "q", expected: null, output: "a", run, expectedTools: null },
      noJudge,
    );
    expect(none).toMatchObject({ passed: false, reason: "the case has no expectedTools" });
  });

  it("call_count bounds tool calls or model calls", async () => {
    expect(await score({ type: "call_count", of: "tool_calls", max: 2 })).toMatchObject({ passed: true });
    expect(await score({ type: "call_count", of: "model_calls", max: 2 })).toMatchObject({
      passed: false,
      reason: "3 model calls, more than 2",
    });
    expect(await score({ type: "call_count", of: "tool_calls", min: 3, max: 9 })).toMatchObject({ passed: false });
  });

  it("cost and latency thresholds; an unknown price fails", async () => {
    expect(await score({ type: "cost", maxUsd: 0.01 })).toMatchObject({ passed: true, score: 1 });
    expect(await score({ type: "cost", maxUsd: 0.001 })).toMatchObject({ passed: false, score: 0 });
    expect(await score({ type: "cost", maxUsd: 1 }, { ...run, costUsd: null })).toMatchObject({ passed: false });
    expect(await score({ type: "latency", maxMs: 2000 })).toMatchObject({ passed: true });
    expect(await score({ type: "latency", maxMs: 1000 })).toMatchObject({
      passed: false,
      reason: "took 1500 ms, over 1000 ms",
    });
  });

  it("refuses to score a run scorer without a run (an answer graded alone)", async () => {
    const alone = { input: "q", expected: null, output: "a" };
    await expect(scoreOutput([{ type: "latency", maxMs: 1 }], alone, noJudge)).rejects.toBeInstanceOf(ScoringFailed);
  });
});
