import type { ExperimentComparison, ScorerType } from "@agent-platform/contract";
import type pg from "pg";
import { AppError } from "../http/app-error.js";
import { type ComparedCase, compareCases } from "./compare-cases.js";
import { findExperiment } from "./read-experiments.js";
import { computeTotals } from "./totals.js";

type Queryable = Pick<pg.Pool, "query">;

/**
 * Compares an experiment with a baseline over the same dataset, over the cases both have finished (matched by dataset
 * case): the overall pass rate as each experiment defines it (every one of its scorers, as on its own page); per
 * scorer type both use, the difference of mean score and pass rate; and the cases whose verdict changed on any shared
 * scorer (`compareCases`), with both outputs. Both sides are read in one query.
 */
export async function compareExperiments(
  db: Queryable,
  projectId: string,
  id: string,
  baselineId: string,
): Promise<ExperimentComparison> {
  const [experiment, baseline] = await Promise.all([
    findExperiment(db, projectId, id),
    findExperiment(db, projectId, baselineId),
  ]);
  if (experiment.datasetId !== baseline.datasetId) {
    throw new AppError(
      "experiment.not_comparable",
      `Experiment ${baselineId} ran dataset ${baseline.datasetId}, not ${experiment.datasetId}: compare experiments of one dataset`,
    );
  }
  const { rows } = await db.query<ComparedCase & { experimentId: string }>(
    `SELECT "experimentId", "position", "caseId", "input", "expected", "output", "error", "sessionId", "state",
       "scores", "latencyMs", "inputTokens", "outputTokens", "judgeInputTokens", "judgeOutputTokens", "costUsd"
     FROM experiment_cases WHERE "experimentId" = ANY($1::text[]) AND "state" IN ('completed', 'error')`,
    [[id, baselineId]],
  );
  const theirs = new Map(rows.filter((r) => r.experimentId === baselineId).map((r) => [r.caseId, r]));
  const pairs = rows
    .filter((r) => r.experimentId === id && theirs.has(r.caseId))
    .sort((x, y) => x.position - y.position)
    .map((now) => ({ now, before: theirs.get(now.caseId)! }));
  const types: ScorerType[] = experiment.scorers
    .map((s) => s.type)
    .filter((t) => baseline.scorers.some((s) => s.type === t));
  const scorers = types.map((type) => ({ type }));
  const totalsA = computeTotals(
    scorers,
    pairs.map((p) => p.now),
  );
  const totalsB = computeTotals(
    scorers,
    pairs.map((p) => p.before),
  );
  const cases = compareCases(pairs, types);
  const count = (type: ScorerType, change: "regression" | "improvement") =>
    cases.filter((c) => c.scorers.some((s) => s.type === type && s.change === change)).length;
  const refs = (change: "regression" | "improvement") =>
    cases
      .filter((c) => c.change === change)
      .map((c) => ({ caseId: c.caseId, position: c.position }))
      .sort((x, y) => x.position - y.position);
  return {
    experimentId: id,
    baselineId,
    datasetId: experiment.datasetId,
    passRate: delta(totalsA.passRate, totalsB.passRate),
    scorers: totalsA.scorers.map((s, i) => ({
      type: s.type,
      meanScore: delta(s.meanScore, totalsB.scorers[i]!.meanScore),
      passRate: delta(s.passRate, totalsB.scorers[i]!.passRate),
      regressions: count(s.type, "regression"),
      improvements: count(s.type, "improvement"),
    })),
    regressions: refs("regression"),
    improvements: refs("improvement"),
    cases,
  };
}

function delta(experiment: number | null, baseline: number | null) {
  return { experiment, baseline, delta: experiment === null || baseline === null ? null : experiment - baseline };
}
