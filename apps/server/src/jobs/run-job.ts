import type pg from "pg";
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "../lib/database-unavailable.js";
import { inSpan, inTraceOf } from "../lib/telemetry/instruments.js";
import { inTransaction } from "../lib/transaction.js";
import { untilDatabaseAnswers } from "../lib/until-database-answers.js";
import { JobLeaseLost, WorkerStopping } from "./errors.js";
import type { LeaseKeeper } from "./lease-keeper.js";
import { type Claim, completeJob, dropJob, holdsLease, releaseJob, rescheduleJob } from "./queue.js";
import type { DeadJob, JobKind, JobLease, RunningJob } from "./types.js";

export interface RunJobDeps {
  pool: pg.Pool;
  logger: Logger;
  /** Called when the job was handed back due later (a retry backoff, a schedule): wake a runner then. */
  wakeAt(time: number): void;
  /** Renews the leases of the process's runs. */
  leases: LeaseKeeper;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs one claimed job to the end of its claim: the lease is renewed by the process's keeper (losing it aborts the
 * run), the handler runs again while the job is requested again meanwhile, and the outcome is written back: done
 * (row deleted), due again later, retried with backoff after a failure, handed back at once when the worker stops, or
 * given up after too many attempts (the kind's `giveUp`, then the row is deleted and the job logged as dead). A run's
 * spans continue the trace of the request that asked for it.
 */
export async function runJob<P>(
  deps: RunJobDeps,
  kind: JobKind<P>,
  claim: Claim,
  controller: AbortController,
  /** Run in the caller's trace (an inline run, part of the caller's work) rather than the one the job row names. */
  inheritTrace = false,
): Promise<void> {
  const { pool } = deps;
  let inherit = inheritTrace;
  const logger = deps.logger.child({ job: kind.kind, key: claim.key });
  const lease = { kind: claim.kind, key: claim.key, token: claim.token };
  const letGo = deps.leases.hold(lease, kind.leaseMs, () => controller.abort(new JobLeaseLost(claim.kind, claim.key)));
  const job = (payload: P): RunningJob<P> => ({
    kind: claim.kind,
    key: claim.key,
    payload,
    attempts: claim.attempts,
    lease,
    generation: claim.generation,
    ...(claim.preloaded !== undefined ? { preloaded: claim.preloaded } : {}),
    signal: controller.signal,
    logger,
    fenced: (fn) =>
      inTransaction(pool, async (client) => {
        if (!(await holdsLease(client, lease))) throw new JobLeaseLost(claim.kind, claim.key);
        return fn(client);
      }),
  });
  try {
    if (claim.attempts > kind.retry.maxAttempts) {
      const failures = claim.attempts - 1;
      const reason = claim.lastError ?? `the worker running it stopped ${failures} times`;
      await giveUp(deps, kind, claim, job, reason, failures);
      return;
    }
    for (;;) {
      const parsed = kind.payload.safeParse(claim.payload);
      if (!parsed.success) {
        const reason = `its payload does not match the kind's schema: ${parsed.error.message}`;
        await giveUp(deps, kind, claim, job, reason, claim.attempts - 1);
        return;
      }
      const attributes = {
        "agent_platform.job.kind": claim.kind,
        "agent_platform.job.key": claim.key,
        "agent_platform.job.attempt": claim.attempts,
      };
      const run = () => inSpan("job.run", attributes, () => kind.run(job(parsed.data)));
      const outcome = await (inherit ? run() : inTraceOf(claim.traceparent, run));
      if (outcome && "released" in outcome) return;
      if (outcome?.runAgainAt) {
        if (await rescheduleJob(pool, claim, outcome.runAgainAt)) deps.wakeAt(outcome.runAgainAt.getTime());
        else logger.warn("job lease lost before it was rescheduled: another worker took it over");
        return;
      }
      // What the claim read is for its first round only.
      claim.preloaded = undefined;
      const done = await completeJob(pool, claim, kind.leaseMs);
      if (done.kind === "lost") logger.warn("job lease lost before completion: another worker took it over");
      if (done.kind !== "again") return;
      claim.generation = done.generation;
      claim.payload = done.payload;
      claim.traceparent = done.traceparent;
      inherit = false;
      claim.attempts = 0;
    }
  } catch (thrown) {
    const error = controller.signal.aborted ? controller.signal.reason : thrown;
    if (error instanceof WorkerStopping) {
      await releaseJob(pool, lease, { attemptsDelta: -1 }).catch((e) =>
        logger.warn({ err: e }, "could not hand the job back"),
      );
    } else if (error instanceof JobLeaseLost) {
      logger.warn("job lease lost: another worker took it over");
    } else if (isDatabaseUnavailable(error)) {
      await handBackAfterOutage(deps, kind.leaseMs, lease, error, logger);
    } else {
      await fail(deps, kind, claim, job, error, logger);
    }
  } finally {
    letGo();
  }
}

/**
 * The run failed because the database could not be reached: not the job's fault, so the attempt is not counted and the
 * job is due again at once. It is handed back as soon as the database answers (until then the release itself fails),
 * so that the job resumes within moments of the database's return rather than when its lease expires.
 */
async function handBackAfterOutage(
  deps: RunJobDeps,
  leaseMs: number,
  lease: JobLease,
  error: unknown,
  logger: Logger,
): Promise<void> {
  logger.warn({ err: error }, "job interrupted: the database is unreachable; handing it back once it answers");
  const released = await untilDatabaseAnswers(() => releaseJob(deps.pool, lease, { attemptsDelta: -1 }), leaseMs).catch(
    (e) => {
      logger.warn({ err: e }, "could not hand the job back");
      return false;
    },
  );
  if (released) {
    logger.info("job handed back after the database outage");
    deps.wakeAt(Date.now());
  }
}

async function fail<P>(
  deps: RunJobDeps,
  kind: JobKind<P>,
  claim: Claim,
  job: (payload: P) => RunningJob<P>,
  error: unknown,
  logger: Logger,
): Promise<void> {
  const lastError = errorText(error);
  if (claim.attempts >= kind.retry.maxAttempts) {
    logger.error({ err: error, attempts: claim.attempts }, "job failed");
    await giveUp(deps, kind, claim, job, lastError, claim.attempts).catch((e) =>
      logger.error({ err: e }, "could not give the job up"),
    );
    return;
  }
  const delayMs = kind.retry.backoffMs(claim.attempts);
  logger.error({ err: error, attempts: claim.attempts, retryInMs: delayMs }, "job failed; retrying");
  // Recorded even when the database is briefly out of reach, so that the retry keeps its backoff and its count.
  await untilDatabaseAnswers(() => releaseJob(deps.pool, claim, { delayMs, lastError }), kind.leaseMs).catch((e) =>
    logger.warn({ err: e }, "could not hand the job back"),
  );
  deps.wakeAt(Date.now() + delayMs);
}

async function giveUp<P>(
  deps: RunJobDeps,
  kind: JobKind<P>,
  claim: Claim,
  job: (payload: P) => RunningJob<P>,
  lastError: string,
  failures: number,
): Promise<void> {
  const parsed = kind.payload.safeParse(claim.payload);
  const dead: DeadJob<P> = { ...job(parsed.success ? parsed.data : (undefined as P)), lastError, failures };
  try {
    await kind.giveUp?.(dead);
  } catch (error) {
    // Recording the failure failed (database down?): keep the row; the next claim gives up again.
    const delayMs = kind.retry.backoffMs(claim.attempts);
    deps.logger.error({ err: error, job: kind.kind, key: claim.key }, "giving the job up failed; will try again");
    await releaseJob(deps.pool, claim, { delayMs, lastError });
    deps.wakeAt(Date.now() + delayMs);
    return;
  }
  await dropJob(deps.pool, claim);
  deps.logger.error(
    { job: kind.kind, key: claim.key, attempts: claim.attempts, lastError },
    "job gave up: dead (removed from the queue)",
  );
}
