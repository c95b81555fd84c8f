import type { CaseChange, CaseComparison, Score, ScorerType } from "@agent-platform/contract";
import type { FinishedCase } from "./totals.js";

/** A finished case of one side, as the comparison reads it. */
export interface ComparedCase extends FinishedCase {
  position: number;
  caseId: string;
  input: string;
  expected: string | null;
  output: string | null;
  error: string | null;
  sessionId: string | null;
}

type Verdict = { passed: boolean; score: number } | null;

/** One scorer's change: pass → fail is a regression, fail → pass an improvement (a missing verdict is not a pass). */
function scorerChange(before: Verdict, now: Verdict): CaseChange {
  const was = before?.passed === true;
  const is = now?.passed === true;
  if (was && !is) return "regression";
  if (!was && is) return "improvement";
  return "unchanged";
}

function verdictOf(row: ComparedCase, type: ScorerType): Verdict {
  if (row.state !== "completed") return null;
  const score = row.scores.find((s: Score) => s.type === type);
  return score ? { passed: score.passed, score: score.score } : null;
}

const side = (row: ComparedCase): CaseComparison["experiment"] => ({
  status: row.state === "completed" ? "completed" : "error",
  output: row.output,
  error: row.error,
  latencyMs: row.latencyMs,
  sessionId: row.sessionId,
});

/**
 * The cases whose verdict changed, in the order a reviewer reads them (Braintrust's and LangSmith's "regressions
 * first"): every regression — a pass → fail on any one scorer, or a case that errored only here — with the most
 * scorers regressed first, then by position; then the improvements by position. Unchanged cases are left out.
 */
export function compareCases(
  pairs: readonly { now: ComparedCase; before: ComparedCase }[],
  types: readonly ScorerType[],
): CaseComparison[] {
  const changed: (CaseComparison & { regressed: number })[] = [];
  for (const { now, before } of pairs) {
    const scorers = types.map((type) => {
      const experiment = verdictOf(now, type);
      const baseline = verdictOf(before, type);
      return {
        type,
        experiment,
        baseline,
        delta: experiment && baseline ? experiment.score - baseline.score : null,
        change: scorerChange(baseline, experiment),
      };
    });
    const errored = now.state === "error" && before.state !== "error";
    const recovered = now.state !== "error" && before.state === "error";
    const regressed = scorers.filter((s) => s.change === "regression").length + (errored ? 1 : 0);
    const improved = scorers.some((s) => s.change === "improvement") || recovered;
    const change: CaseChange = regressed > 0 ? "regression" : improved ? "improvement" : "unchanged";
    if (change === "unchanged") continue;
    changed.push({
      caseId: now.caseId,
      position: now.position,
      change,
      input: now.input,
      expected: now.expected,
      experiment: side(now),
      baseline: side(before),
      scorers,
      regressed,
    });
  }
  const rank = (c: { change: CaseChange; regressed: number }) => (c.change === "regression" ? -c.regressed : 1);
  return changed
    .sort((x, y) => rank(x) - rank(y) || x.position - y.position)
    .map(({ regressed: _regressed, ...comparison }) => comparison);
}
