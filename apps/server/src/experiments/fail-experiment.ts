import type pg from "pg";

/**
 * Fails an experiment whose run cannot go on (a case could not be run after its retries): `status: failed` with the
 * reason. Cases still queued find the experiment failed and stop; pending ones never start.
 */
export async function failExperiment(client: pg.PoolClient, experimentId: string, message: string): Promise<void> {
  await client.query(
    `UPDATE experiments SET "status" = 'failed', "error" = $2, "finishedAt" = now()
     WHERE "id" = $1 AND "status" IN ('pending', 'running')`,
    [experimentId, message],
  );
}
