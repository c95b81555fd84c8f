import type pg from "pg";
import { CASE_COLUMNS, type CaseRow, EXPERIMENT_COLUMNS, type ExperimentRow } from "./serialize.js";

/** An experiment and one of its cases, in one query; null when either is gone. */
export async function loadCase(
  db: Pick<pg.Pool, "query">,
  experimentId: string,
  position: number,
): Promise<{ experiment: ExperimentRow; row: CaseRow } | null> {
  const { rows } = await db.query<{ experiment: ExperimentRow; row: CaseRow }>(
    `SELECT to_jsonb(e) AS "experiment", to_jsonb(c) AS "row"
     FROM (SELECT ${EXPERIMENT_COLUMNS} FROM experiments WHERE "id" = $1) e,
          (SELECT ${CASE_COLUMNS} FROM experiment_cases WHERE "experimentId" = $1 AND "position" = $2) c`,
    [experimentId, position],
  );
  const found = rows[0];
  if (!found) return null;
  const dates = <T extends object>(o: T, keys: string[]) => {
    const out = o as Record<string, unknown>;
    for (const k of keys) if (typeof out[k] === "string") out[k] = new Date(out[k] as string);
    return o;
  };
  return {
    experiment: dates(found.experiment, ["createdAt", "startedAt", "finishedAt"]),
    row: dates(found.row, ["startedAt", "finishedAt"]),
  };
}

/**
 * Marks the case started (its start time kept across re-runs: time caps count from the first start) and the
 * experiment running (`pending` → `running` on its first case). Returns the case's start time.
 */
export async function markStarted(db: Pick<pg.Pool, "query">, experimentId: string, position: number): Promise<Date> {
  const { rows } = await db.query<{ startedAt: Date }>(
    `WITH started AS (
       UPDATE experiments SET "status" = 'running', "startedAt" = now()
       WHERE "id" = $1 AND "status" = 'pending'
     )
     UPDATE experiment_cases SET "startedAt" = COALESCE("startedAt", now())
     WHERE "experimentId" = $1 AND "position" = $2 RETURNING "startedAt"`,
    [experimentId, position],
  );
  return rows[0]?.startedAt ?? new Date();
}
