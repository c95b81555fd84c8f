export { exponentialBackoff, RETRY_FOREVER } from "./backoff.js";
export { cancelJob, type EnqueueRequest, enqueueCtes, enqueueJob, enqueueJobs, enqueueLeasedCtes } from "./enqueue.js";
export { JobLeaseLost, WorkerStopping } from "./errors.js";
export { type JobType, jobType, NO_PAYLOAD, type NoPayload } from "./job-type.js";
export {
  askRunnersToSweep,
  type Claim,
  holdsLease,
  insertClaimed,
  JOBS_CHANNEL,
  keyDueInMs,
  releaseOwnJobSql,
  wakeRunners,
} from "./queue.js";
export { JobRunner, type JobRunnerOptions } from "./runner.js";
export type {
  AnyJobKind,
  DeadJob,
  JobKind,
  JobLease,
  JobOutcome,
  ReservedSlot,
  RetryPolicy,
  RunningJob,
} from "./types.js";
