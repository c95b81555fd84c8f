/** The worker is stopping: the run gives its lease back and another worker (or the next start) resumes it. */
export class WorkerStopping extends Error {
  override readonly name = "WorkerStopping";
  constructor() {
    super("The worker is stopping");
  }
}

/** Another worker took the job over (this one stalled past its lease): stop without writing anything. */
export class JobLeaseLost extends Error {
  override readonly name = "JobLeaseLost";
  constructor(kind: string, key: string) {
    super(`Lost the lease on job ${kind}:${key}`);
  }
}
