import type pg from "pg";
import { notFound } from "../http/app-error.js";
import { cancelJob } from "../jobs/index.js";
import { inTransaction } from "../lib/transaction.js";
import { QUEUED_JOB, SCHEDULE_JOB } from "./job-types.js";

/**
 * Deletes the automation with its run records (cascade) and removes its schedule in the same transaction: from the
 * commit on it fires no more (a firing in progress then fails its lease check and commits nothing). Sessions it
 * created stay. Manual runs still queued find it gone and do nothing.
 */
export async function deleteAutomation(pool: pg.Pool, projectId: string, id: string): Promise<void> {
  await inTransaction(pool, async (client) => {
    const { rowCount } = await client.query(`DELETE FROM automations WHERE "id" = $1 AND "projectId" = $2`, [
      id,
      projectId,
    ]);
    if (!rowCount) throw notFound("automation.not_found", "Automation", id);
    await cancelJob(client, SCHEDULE_JOB, id);
    await cancelJob(client, QUEUED_JOB, id);
  });
}
