import { z } from "zod";
import type { AppContext } from "../context.js";
import { exponentialBackoff, type JobKind, type JobOutcome, type RunningJob } from "../jobs/index.js";
import { inTransaction } from "../lib/transaction.js";
import { sameRevision } from "./automation-row.js";
import { loadAutomation } from "./automation-store.js";
import { commitFiring, recordError } from "./firing/commit-firing.js";
import { prepareFiring } from "./firing/prepare-firing.js";
import { MANUAL_RUN_JOB } from "./job-types.js";

type ManualRun = z.infer<typeof MANUAL_RUN_JOB.payload>;

const MAX_PREPARATIONS = 5;

/**
 * Manual runs (`automation.run`, key: the run id): a durable job, so a run requested just before a worker stopped
 * still fires, once (its run record takes the key as id). A run whose firing keeps failing gives up after 5 attempts
 * and is recorded as `error` with the last failure.
 */
export function automationManualRunKind(ctx: AppContext, concurrency: number, leaseMs: number): JobKind<ManualRun> {
  return {
    ...MANUAL_RUN_JOB,
    concurrency,
    leaseMs,
    retry: { maxAttempts: 5, backoffMs: exponentialBackoff({ baseMs: 1_000, maxMs: 60_000, jitter: 0.2 }) },
    run: (job) => fireManualRun(ctx, job),
    async giveUp(job) {
      if (!job.payload) return;
      const { automationId } = job.payload;
      await inTransaction(ctx.db.pool, async (client) => {
        const row = await loadAutomation(client, automationId, "share");
        if (!row) return;
        const firing = { runId: job.key, triggerKind: "manual" as const, scheduledFor: null };
        await recordError(ctx, client, row, firing, `The run could not be started: ${job.lastError}`);
      });
    },
  };
}

async function fireManualRun(ctx: AppContext, job: RunningJob<ManualRun>): Promise<JobOutcome> {
  for (let attempt = 0; attempt < MAX_PREPARATIONS; attempt++) {
    const row = await loadAutomation(ctx.db.pool, job.payload.automationId);
    if (!row) return undefined; // deleted since: nothing to record it on
    const prepared = await prepareFiring(ctx, row, job.logger);
    const fired = await job.fenced(async (client) => {
      const locked = await loadAutomation(client, row.id, "share");
      if (!locked) return true;
      if (!sameRevision(locked, row)) return false;
      await commitFiring(ctx, client, locked, { runId: job.key, triggerKind: "manual", scheduledFor: null }, prepared);
      return true;
    });
    if (fired) return undefined;
  }
  throw new Error(
    `automation ${job.payload.automationId} changed during each of ${MAX_PREPARATIONS} attempts to run it`,
  );
}
