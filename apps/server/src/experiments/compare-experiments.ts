import type { ExperimentComparison, Score } from "@agent-platform/contract";
import type pg from "pg";
import { AppError } from "../http/app-error.js";
import { findExperiment } from "./read-experiments.js";
import { casePassed, computeTotals, type FinishedCase } from "./totals.js";

type Queryable = Pick<pg.Pool, "query">;

interface ComparedCase extends FinishedCase {
  position: number;
  caseId: string;
}

/**
 * Compares an experiment with a baseline over the same dataset: over the cases both have finished (matched by dataset
 * case), per scorer type both use the difference of mean score and pass rate, the overall pass rate, and the cases
 * that went from pass to fail (regressions) and from fail to pass (improvements).
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
    `SELECT "experimentId", "position", "caseId", "state", "scores", "latencyMs", "inputTokens", "outputTokens",
       "judgeInputTokens", "judgeOutputTokens", "costUsd"
     FROM experiment_cases WHERE "experimentId" = ANY($1::text[]) AND "state" IN ('completed', 'error')`,
    [[id, baselineId]],
  );
  const mine = new Map(rows.filter((r) => r.experimentId === id).map((r) => [r.caseId, r]));
  const theirs = new Map(rows.filter((r) => r.experimentId === baselineId).map((r) => [r.caseId, r]));
  const shared = [...mine.keys()].filter((caseId) => theirs.has(caseId));
  const a = shared.map((caseId) => mine.get(caseId)!);
  const b = shared.map((caseId) => theirs.get(caseId)!);
  const types = experiment.scorers.map((s) => s.type).filter((t) => baseline.scorers.some((s) => s.type === t));
  const scorersOf = (list: readonly { type: Score["type"] }[]) => list.filter((s) => types.includes(s.type));
  const totalsA = computeTotals(scorersOf(experiment.scorers), a);
  const totalsB = computeTotals(scorersOf(baseline.scorers), b);
  const regressions: { caseId: string; position: number }[] = [];
  const improvements: { caseId: string; position: number }[] = [];
  for (const caseId of shared) {
    const now = mine.get(caseId)!;
    const before = theirs.get(caseId)!;
    const ref = { caseId, position: now.position };
    if (casePassed(before) && !casePassed(now)) regressions.push(ref);
    if (!casePassed(before) && casePassed(now)) improvements.push(ref);
  }
  const byPosition = (x: { position: number }, y: { position: number }) => x.position - y.position;
  return {
    experimentId: id,
    baselineId,
    datasetId: experiment.datasetId,
    passRate: delta(totalsA.passRate, totalsB.passRate),
    scorers: totalsA.scorers.map((s, i) => ({
      type: s.type,
      meanScore: delta(s.meanScore, totalsB.scorers[i]!.meanScore),
      passRate: delta(s.passRate, totalsB.scorers[i]!.passRate),
    })),
    regressions: regressions.sort(byPosition),
    improvements: improvements.sort(byPosition),
  };
}

function delta(experiment: number | null, baseline: number | null) {
  return { experiment, baseline, delta: experiment === null || baseline === null ? null : experiment - baseline };
}
