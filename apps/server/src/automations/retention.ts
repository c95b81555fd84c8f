import type pg from "pg";
import { deleteInBatches } from "../lib/delete-in-batches.js";

/** Deletes the run records older than `days` (`AUTOMATION_RUN_RETENTION_DAYS`); the sessions they started stay. */
export function deleteExpiredAutomationRuns(pool: pg.Pool, days: number): Promise<number> {
  return deleteInBatches(pool, "automation_runs", `"createdAt" < now() - make_interval(days => $1)`, [days]);
}
