import type pg from "pg";
import { newId } from "../ids.js";
import { enqueueJob } from "../jobs/index.js";
import { requireAutomation } from "./automation-store.js";
import { MANUAL_RUN_JOB } from "./job-types.js";

/**
 * A manual run (spec rule 4): recorded durably as a job keyed by the id its run record will take, so it survives a
 * worker restart and fires once however often it is retried. The result is read from the runs list.
 */
export async function requestManualRun(
  pool: pg.Pool,
  projectId: string,
  automationId: string,
): Promise<{ accepted: true; runId: string }> {
  await requireAutomation(pool, projectId, automationId);
  const runId = newId("automationRun");
  await enqueueJob(pool, MANUAL_RUN_JOB, { key: runId, payload: { automationId } });
  return { accepted: true, runId };
}
