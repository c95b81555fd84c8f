import type pg from "pg";
import type { CaseResult } from "./cases/case-outcome.js";
import { queuePendingCases } from "./queue-cases.js";
import { CASE_COLUMNS, type CaseRow, EXPERIMENT_COLUMNS, type ExperimentRow } from "./serialize.js";
import { computeTotals } from "./totals.js";

/**
 * Records a finished case, in its job's fenced transaction, under the experiment's row lock (so finishing cases of one
 * experiment are counted one at a time and exactly one of them sees the last): the result (once: a case already
 * recorded is left alone), the progress, the next pending case queued in its place, and — for the last case — the
 * totals and `status: completed`. Returns the experiment when this case completed it.
 */
export async function finishCase(
  client: pg.PoolClient,
  experimentId: string,
  position: number,
  result: CaseResult,
): Promise<ExperimentRow | null> {
  const { rows: locked } = await client.query<ExperimentRow>(
    `SELECT ${EXPERIMENT_COLUMNS} FROM experiments WHERE "id" = $1 FOR UPDATE`,
    [experimentId],
  );
  const experiment = locked[0];
  if (!experiment) return null;
  const recorded = await client.query(
    `UPDATE experiment_cases SET "state" = $3, "output" = $4, "scores" = $5::jsonb, "latencyMs" = $6,
       "inputTokens" = $7, "outputTokens" = $8, "judgeInputTokens" = $9, "judgeOutputTokens" = $10, "costUsd" = $11,
       "error" = $12, "sessionId" = COALESCE($13, "sessionId"), "finishedAt" = now()
     WHERE "experimentId" = $1 AND "position" = $2 AND "state" IN ('pending', 'queued')`,
    [
      experimentId,
      position,
      result.state,
      result.output,
      JSON.stringify(result.scores),
      result.latencyMs,
      result.usage.inputTokens,
      result.usage.outputTokens,
      result.judgeUsage.inputTokens,
      result.judgeUsage.outputTokens,
      result.costUsd,
      result.error,
      result.sessionId,
    ],
  );
  if (!recorded.rowCount) return null;
  const { rows } = await client.query<{ done: number; caseCount: number; status: string }>(
    `UPDATE experiments SET "done" = "done" + 1, "errored" = "errored" + $2 WHERE "id" = $1
     RETURNING "done", "caseCount", "status"`,
    [experimentId, result.state === "error" ? 1 : 0],
  );
  const progress = rows[0]!;
  if (progress.status === "failed") return null;
  if (progress.done < progress.caseCount) {
    await queuePendingCases(client, experimentId, 1);
    return null;
  }
  const { rows: cases } = await client.query<CaseRow>(
    `SELECT ${CASE_COLUMNS} FROM experiment_cases WHERE "experimentId" = $1`,
    [experimentId],
  );
  const totals = computeTotals(
    experiment.scorers,
    cases.map((c) => ({ ...c, state: c.state === "completed" ? "completed" : "error" })),
  );
  const { rows: completed } = await client.query<ExperimentRow>(
    `UPDATE experiments SET "status" = 'completed', "totals" = $2::jsonb, "finishedAt" = now(),
       "startedAt" = COALESCE("startedAt", now())
     WHERE "id" = $1 RETURNING ${EXPERIMENT_COLUMNS}`,
    [experimentId, JSON.stringify(totals)],
  );
  return completed[0]!;
}
