import type pg from "pg";
import { enqueueJobs } from "../jobs/index.js";
import { CASE_JOB, caseKey } from "./job-types.js";

type Queryable = Pick<pg.Pool, "query">;

/**
 * Queues up to `count` pending cases of the experiment (the first ones in dataset order): marks them `queued` and
 * enqueues their jobs, in the caller's transaction (the NOTIFY is delivered at its commit). Concurrent callers never
 * queue the same case: the rows are claimed with SKIP LOCKED.
 */
export async function queuePendingCases(db: Queryable, experimentId: string, count: number): Promise<number> {
  if (count <= 0) return 0;
  const { rows } = await db.query<{ position: number }>(
    `WITH next AS (
       SELECT "position" FROM experiment_cases WHERE "experimentId" = $1 AND "state" = 'pending'
       ORDER BY "position" LIMIT $2 FOR UPDATE SKIP LOCKED
     )
     UPDATE experiment_cases c SET "state" = 'queued' FROM next
     WHERE c."experimentId" = $1 AND c."position" = next."position"
     RETURNING c."position"`,
    [experimentId, count],
  );
  await enqueueJobs(
    db,
    CASE_JOB,
    rows.map((r) => ({ key: caseKey(experimentId, r.position) })),
  );
  return rows.length;
}
