import type pg from "pg";
import type { Logger } from "pino";
import type { JobType } from "./job-type.js";
import type { Claim } from "./queue.js";

/** How a kind retries a run that threw, and when it gives up. */
export interface RetryPolicy {
  /** Claims without a run that ended normally before the job gives up (a crash counts as one). */
  maxAttempts: number;
  /** Delay before the next attempt after `attempts` failed ones (1 after the first failure). */
  backoffMs(attempts: number): number;
}

/** The lease a run holds on its row (`jobs.leaseOwner`); writers fence their commits on it. */
export interface JobLease {
  kind: string;
  key: string;
  token: string;
}

/** What a handler gets for one run. */
export interface RunningJob<P> {
  readonly kind: string;
  readonly key: string;
  readonly payload: P;
  /** Claims since the last run that ended normally (1 on a first run). */
  readonly attempts: number;
  readonly lease: JobLease;
  /**
   * The request generation this run serves: a run may delete its own row in its last fenced write (`releaseOwnJobSql`)
   * when no request arrived since (the generation is unchanged), and then returns `{ released: true }`.
   */
  readonly generation: string;
  /**
   * What the kind's `preload` read with the claim, when it did and the claim's snapshot already held the request
   * claimed (only on a run's first round: a run asked for again reads for itself).
   */
  readonly preloaded?: unknown;
  /** Aborted when the lease is lost (another worker took the job) or when the worker stops: stop promptly. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /**
   * Runs `fn` in a transaction fenced by this run's lease: the row is locked first and the transaction is rolled back
   * with `JobLeaseLost` when another worker owns it. Writes that must happen once per job go here.
   */
  fenced<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
}

/** A job that gave up: its last error, for the kind's `giveUp` (which still holds the lease). */
export interface DeadJob<P> extends RunningJob<P | undefined> {
  readonly lastError: string;
  /** Runs that did not end normally (failed, or cut short by a crash). */
  readonly failures: number;
}

/**
 * What a run asks for when it ends normally; nothing means done. `released`: the run's last fenced write deleted its row
 * already (nothing arrived meanwhile), so there is nothing left to complete.
 */
export type JobOutcome = undefined | { runAgainAt: Date } | { released: true };

/**
 * A kind of background work: its type (name and payload schema, `jobType`, declared where the area enqueues it), then
 * how it runs. Built by the area and registered once per process by the composition root (`background.ts`).
 */
export interface JobKind<P = unknown> extends JobType<P> {
  /** Runs of this kind one process holds at once (each kind has its own slots: kinds never starve each other). */
  readonly concurrency: number;
  /** Lease of a claim, renewed every third of it while the run goes on. */
  readonly leaseMs: number;
  readonly retry: RetryPolicy;
  /**
   * Does the work. Returning ends the run: the row is deleted, unless the job was requested again meanwhile (it then
   * runs again at once, with the newest payload) or the outcome asks to run again later. Throwing retries with backoff;
   * after `retry.maxAttempts` the job gives up. Work must be idempotent: a run cut short by a crash runs again.
   */
  run(job: RunningJob<P>): Promise<JobOutcome>;
  /**
   * What a run of `key` reads first, read by the statement that claims a notified key (one round trip fewer per run):
   * an SQL expression giving one JSON value, its values passed through `param` (which returns the placeholder). The
   * run gets it as `preloaded`, unless the job was requested again after the claim's snapshot (then nothing is given
   * and the run reads for itself).
   */
  preload?(key: string, param: (value: unknown) => string): string;
  /** The job gave up (too many attempts, or a payload that does not parse): record it where users will see it. */
  giveUp?(job: DeadJob<P>): Promise<void>;
}

/**
 * A kind of any payload, as the runner holds them (each kind parses and types its own payload; the runner only passes
 * the parsed value on), so a list of kinds needs no cast.
 */
// biome-ignore lint/suspicious/noExplicitAny: the runner is generic over every kind's payload; each kind checks its own
export type AnyJobKind = JobKind<any>;

/**
 * A slot of a kind held for a job its holder inserts already leased to `token` (see `JobRunner.reserve`): `run` runs
 * that claim in the slot, `release` gives the slot back when nothing was claimed. Only the first call counts.
 */
export interface ReservedSlot {
  readonly token: string;
  readonly leaseMs: number;
  run(claim: Claim): void;
  release(): void;
}
