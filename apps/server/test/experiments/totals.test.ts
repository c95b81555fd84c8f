import { describe, expect, it } from "vitest";
import { computeTotals, type FinishedCase, percentile } from "../../src/experiments/totals.js";
import { ModelCatalogue } from "../../src/models/catalogue.js";

function row(partial: Partial<FinishedCase>): FinishedCase {
  return {
    state: "completed",
    scores: [],
    latencyMs: 10,
    inputTokens: 0,
    outputTokens: 0,
    judgeInputTokens: 0,
    judgeOutputTokens: 0,
    costUsd: 0,
    ...partial,
  };
}

const pass = (type: "contains" | "not_empty", score = 1) => ({ type, score, passed: score >= 0.5, reason: null });

describe("experiment totals", () => {
  it("counts cases, means and pass rates per scorer, overall pass rate, latency, usage and cost", () => {
    const totals = computeTotals(
      [{ type: "contains" }, { type: "not_empty" }],
      [
        row({ scores: [pass("contains"), pass("not_empty")], latencyMs: 10, inputTokens: 5, outputTokens: 2 }),
        row({ scores: [pass("contains", 0), pass("not_empty")], latencyMs: 30, inputTokens: 7, outputTokens: 3 }),
        row({ state: "error", latencyMs: 20, judgeInputTokens: 4, judgeOutputTokens: 1, costUsd: 0.5 }),
      ],
    );
    expect(totals).toEqual({
      cases: 3,
      completed: 2,
      errored: 1,
      passRate: 1 / 3,
      scorers: [
        { type: "contains", meanScore: 0.5, passRate: 0.5 },
        { type: "not_empty", meanScore: 1, passRate: 1 },
      ],
      latencyMs: { p50: 20, p95: 30 },
      usage: { inputTokens: 12, outputTokens: 5 },
      judgeUsage: { inputTokens: 4, outputTokens: 1 },
      estimatedCostUsd: 0.5,
    });
  });

  it("has no cost estimate when one case's price is unknown, and null means with no completed case", () => {
    const totals = computeTotals([{ type: "contains" }], [row({ state: "error", costUsd: null })]);
    expect(totals).toMatchObject({
      estimatedCostUsd: null,
      passRate: 0,
      scorers: [{ meanScore: null, passRate: null }],
    });
  });

  it("takes nearest-rank percentiles", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.95)).toBe(95);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });

  it("estimates the cost of known models only", () => {
    const catalogue = new ModelCatalogue();
    const estimateCostUsd = catalogue.estimateCostUsd.bind(catalogue);
    expect(estimateCostUsd("openai/gpt-4o-mini", { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBeCloseTo(
      0.75,
    );
    expect(estimateCostUsd("builtin/echo", { inputTokens: 10, outputTokens: 10 })).toBe(0);
    expect(estimateCostUsd("openai-compatible/local", { inputTokens: 10, outputTokens: 10 })).toBeNull();
  });
});
