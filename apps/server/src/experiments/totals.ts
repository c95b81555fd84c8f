import type { ExperimentTotals, Score, ScorerType } from "@agent-platform/contract";

/** What the totals are computed from: one row per case of the experiment. */
export interface FinishedCase {
  state: "completed" | "error";
  scores: Score[];
  latencyMs: number | null;
  inputTokens: number;
  outputTokens: number;
  judgeInputTokens: number;
  judgeOutputTokens: number;
  costUsd: number | null;
}

/** A case passes when it completed and every scorer passed. */
export function casePassed(row: Pick<FinishedCase, "state" | "scores">): boolean {
  return row.state === "completed" && row.scores.every((s) => s.passed);
}

/** Aggregated metrics of an experiment's cases (see `ExperimentTotalsSchema`). */
export function computeTotals(
  scorers: readonly { type: ScorerType }[],
  rows: readonly FinishedCase[],
): ExperimentTotals {
  const completed = rows.filter((r) => r.state === "completed");
  const latencies = rows.flatMap((r) => (r.latencyMs === null ? [] : [r.latencyMs])).sort((a, b) => a - b);
  let costKnown = true;
  let cost = 0;
  for (const row of rows) {
    if (row.costUsd === null) costKnown = false;
    else cost += row.costUsd;
  }
  return {
    cases: rows.length,
    completed: completed.length,
    errored: rows.length - completed.length,
    passRate: rows.length === 0 ? null : rows.filter(casePassed).length / rows.length,
    scorers: scorers.map((scorer) => {
      const scores = completed.flatMap((r) => r.scores.filter((s) => s.type === scorer.type));
      const metrics = scores.flatMap((s) => (s.trajectory ? [s.trajectory] : []));
      return {
        type: scorer.type,
        meanScore: scores.length === 0 ? null : mean(scores.map((s) => s.score)),
        passRate: scores.length === 0 ? null : scores.filter((s) => s.passed).length / scores.length,
        ...(metrics.length > 0
          ? {
              trajectory: {
                precision: mean(metrics.map((m) => m.precision)),
                recall: mean(metrics.map((m) => m.recall)),
                f1: mean(metrics.map((m) => m.f1)),
              },
            }
          : {}),
      };
    }),
    latencyMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
    usage: { inputTokens: sum(rows, "inputTokens"), outputTokens: sum(rows, "outputTokens") },
    judgeUsage: { inputTokens: sum(rows, "judgeInputTokens"), outputTokens: sum(rows, "judgeOutputTokens") },
    estimatedCostUsd: costKnown ? cost : null,
  };
}

/** Nearest-rank percentile of sorted values; null when there are none. */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function sum(rows: readonly FinishedCase[], key: keyof FinishedCase): number {
  return rows.reduce((total, row) => total + (row[key] as number), 0);
}
