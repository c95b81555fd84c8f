import type { CursorPage, Experiment, ExperimentResult } from "@agent-platform/contract";
import type pg from "pg";
import { notFound } from "../http/app-error.js";
import { decodeCursor, decodeNumberCursor, pageOf } from "../http/pagination.js";
import {
  CASE_COLUMNS,
  type CaseRow,
  EXPERIMENT_COLUMNS,
  type ExperimentRow,
  toExperiment,
  toResult,
} from "./serialize.js";

type Queryable = Pick<pg.Pool, "query">;

export async function findExperiment(db: Queryable, projectId: string, id: string): Promise<ExperimentRow> {
  const { rows } = await db.query<ExperimentRow>(
    `SELECT ${EXPERIMENT_COLUMNS} FROM experiments WHERE "id" = $1 AND "projectId" = $2`,
    [id, projectId],
  );
  if (!rows[0]) throw notFound("experiment.not_found", "Experiment", id);
  return rows[0];
}

export async function getExperiment(db: Queryable, projectId: string, id: string): Promise<Experiment> {
  return toExperiment(await findExperiment(db, projectId, id));
}

export async function listExperiments(
  db: Queryable,
  projectId: string,
  query: { limit: number; cursor?: string; datasetId?: string },
): Promise<CursorPage<Experiment>> {
  const filters = { datasetId: query.datasetId };
  const after = decodeCursor(query.cursor, filters);
  const { rows } = await db.query<ExperimentRow>(
    `SELECT ${EXPERIMENT_COLUMNS} FROM experiments
     WHERE "projectId" = $1 AND ($2::text IS NULL OR "datasetId" = $2) AND ($3::text IS NULL OR "id" < $3)
     ORDER BY "id" DESC LIMIT $4`,
    [projectId, query.datasetId ?? null, after ?? null, query.limit + 1],
  );
  return pageOf(rows, query.limit, filters, (r) => r.id, toExperiment);
}

/** Finished cases in dataset order; the existence check and the page are one round trip. */
export async function listResults(
  db: Queryable,
  projectId: string,
  id: string,
  query: { limit: number; cursor?: string },
): Promise<CursorPage<ExperimentResult>> {
  const filters = { experiment: id };
  const after = decodeNumberCursor(query.cursor, filters);
  const { rows } = await db.query<{ found: boolean; row: CaseRow | null }>(
    `SELECT true AS "found", to_jsonb(c) AS "row"
     FROM experiments e
     LEFT JOIN LATERAL (
       SELECT ${CASE_COLUMNS} FROM experiment_cases
       WHERE "experimentId" = e."id" AND "state" IN ('completed', 'error') AND "position" > $3
       ORDER BY "position" LIMIT $4
     ) c ON true
     WHERE e."id" = $1 AND e."projectId" = $2`,
    [id, projectId, after ?? 0, query.limit + 1],
  );
  if (rows.length === 0) throw notFound("experiment.not_found", "Experiment", id);
  const cases = rows.flatMap((r) =>
    r.row ? [{ ...r.row, finishedAt: r.row.finishedAt && new Date(r.row.finishedAt) }] : [],
  );
  return pageOf(cases, query.limit, filters, (r) => r.position, toResult);
}
