export { exponentialBackoff, RETRY_FOREVER } from "./backoff.js";
export { cancelJob, type EnqueueInput, enqueueCtes, enqueueJob, enqueueJobs, enqueueLeasedCtes } from "./enqueue.js";
export { JobLeaseLost, WorkerStopping } from "./errors.js";
export { type Claim, holdsLease, insertClaimed, JOBS_CHANNEL, keyDueInMs, releaseOwnJobSql } from "./queue.js";
export { JobRunner, type JobRunnerOptions } from "./runner.js";
export type { DeadJob, JobKind, JobLease, JobOutcome, ReservedSlot, RetryPolicy, RunningJob } from "./types.js";
