import type pg from "pg";
import { EXPERIMENT_COLUMNS, type ExperimentRow } from "./serialize.js";

/**
 * Fails an experiment whose run cannot go on (a case could not be run after its retries): `status: failed` with the
 * reason (returned, or null when it had ended already). Cases still queued find the experiment failed and stop;
 * pending ones never start.
 */
export async function failExperiment(
  client: pg.PoolClient,
  experimentId: string,
  message: string,
): Promise<ExperimentRow | null> {
  const { rows } = await client.query<ExperimentRow>(
    `UPDATE experiments SET "status" = 'failed', "error" = $2, "finishedAt" = now()
     WHERE "id" = $1 AND "status" IN ('pending', 'running') RETURNING ${EXPERIMENT_COLUMNS}`,
    [experimentId, message],
  );
  return rows[0] ?? null;
}
