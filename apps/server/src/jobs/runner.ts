import { randomBytes, randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type pg from "pg";
import type { Logger } from "pino";
import type { LoadPressure } from "../lib/load-gauge.js";
import type { PgListener } from "../lib/pg-listener.js";
import { WorkerStopping } from "./errors.js";
import { LeaseKeeper } from "./lease-keeper.js";
import { type Claim, claimDue, claimKey, JOBS_CHANNEL, nextDueMs, releaseJob, SWEEP_PAYLOAD } from "./queue.js";
import { runJob } from "./run-job.js";
import type { AnyJobKind, ReservedSlot } from "./types.js";
import { WakeTimer } from "./wake-timer.js";

export interface JobRunnerOptions {
  pool: pg.Pool;
  listener: PgListener;
  logger: Logger;
  kinds: readonly AnyJobKind[];
  /** On stop, how long runs in progress may take to finish before they are aborted and handed back. */
  drainMs: number;
  /**
   * Back-pressure: while it names an exhausted resource the runner claims nothing new (queued work waits in the table,
   * for this process once it eases or for another one); runs in progress go on.
   */
  pressure?: LoadPressure;
  /** Called when the runner claims work again after its statements had failed (the database was unreachable). */
  onResynchronised?(failedForMs: number): void;
}

interface KindState {
  def: AnyJobKind;
  slotsUsed: number;
  /** Keys named by notifications, to claim one by one. */
  wanted: Set<string>;
  /** Claim whatever is due, oldest first. */
  sweep: boolean;
}

interface ActiveRun {
  controller: AbortController;
  done: Promise<void>;
}

/** A notification this early (or earlier) counts as due now: the claim decides by the database's clock. */
const DUE_SLACK_MS = 1_000;
/** After a failed statement (database unreachable), how soon the runner looks at the queue again. */
const RETRY_AFTER_FAILURE_MS = 500;

/**
 * A process's share of the durable job queue, for every registered kind. New work arrives by NOTIFY on `jobs` (sent
 * after the enqueuing commit; `*` asks for a sweep of the whole queue): the runner claims the named key while the kind
 * has a free slot. A timer armed at the earliest future due time (a delay, a backoff, a schedule, or a lease that
 * expires because its worker died) sweeps the queue then; it is the fallback, never the way new work is found. Each
 * kind has its own slots, so kinds never starve each other. `stop` stops claiming, lets runs in progress finish for
 * `drainMs`, then aborts the rest and hands them back.
 */
export class JobRunner {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly kinds = new Map<string, KindState>();
  private readonly active = new Set<ActiveRun>();
  private tokenCounter = 0;
  private unsubscribe: (() => void) | undefined;
  private readonly timer = new WakeTimer(() => this.sweepAll());
  private readonly leases: LeaseKeeper;
  private timerStale = false;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private stopped = false;
  /** Since when the runner's own statements fail (the database is unreachable); undefined while they work. */
  private failingSince: number | undefined;

  constructor(private readonly options: JobRunnerOptions) {
    this.leases = new LeaseKeeper(options.pool, options.logger);
    for (const def of options.kinds) {
      if (def.kind.includes("|")) throw new Error(`Job kind names cannot contain "|": ${def.kind}`);
      if (this.kinds.has(def.kind)) throw new Error(`Job kind registered twice: ${def.kind}`);
      this.kinds.set(def.kind, { def, slotsUsed: 0, wanted: new Set(), sweep: true });
    }
  }

  start(): void {
    this.options.pressure?.onRelief(() => this.sweepAll());
    this.unsubscribe = this.options.listener.subscribe(JOBS_CHANNEL, {
      onNotification: (payload) => this.notified(payload),
      // Notifications sent while the listener was down are lost: look at the queue.
      onConnected: () => this.sweepAll(),
    });
    this.sweepAll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.timer.stop();
    await this.pumping?.catch(() => {});
    const runs = [...this.active];
    if (runs.length > 0 && this.options.drainMs > 0) {
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(runs.map((r) => r.done)),
        new Promise<void>((resolve) => {
          timeout = setTimeout(resolve, this.options.drainMs);
        }),
      ]);
      clearTimeout(timeout);
    }
    for (const run of this.active) run.controller.abort(new WorkerStopping());
    await Promise.all([...this.active].map((r) => r.done));
    this.leases.stop();
  }

  /** Null while the runner claims work; otherwise why it cannot (for `/readyz`). */
  get problem(): string | null {
    return this.failingSince === undefined ? null : "cannot reach the database; retrying";
  }

  /** A lease token for a job this process inserts already claimed (`insertClaimed`) and then runs with `runInline`. */
  newToken(): string {
    return `${this.id}:${++this.tokenCounter}`;
  }

  /**
   * Runs the job `kind`/`key` in this process, outside the kind's slots (the caller holds one and waits): with `given`,
   * a claim the caller made itself; otherwise only if the job can be claimed now. Returns the run (`done` settles when
   * it ends), or undefined when nothing was claimed (not due, or another worker runs it).
   */
  async runInline(kind: string, key: string, given?: Claim): Promise<{ done: Promise<void> } | undefined> {
    const state = this.kindState(kind);
    if (this.stopped) throw new WorkerStopping();
    const claim =
      given ??
      (await claimKey(this.options.pool, kind, key, this.id, state.def.leaseMs, state.def.preload?.bind(state.def)));
    if (!claim) return undefined;
    return { done: this.launch(state, claim, true) };
  }

  /**
   * Holds a slot of `kind` for a job the caller is about to insert already leased to `token` in a statement of its own
   * (work that arrives in this process runs here without a notification or a claim): undefined when the process is
   * stopping, every slot of the kind is busy, or its heap is past its limit. The caller then runs the claim it made, or
   * gives the slot back.
   */
  reserve(kind: string): ReservedSlot | undefined {
    const state = this.kinds.get(kind);
    if (!state || this.stopped || state.slotsUsed >= state.def.concurrency) return undefined;
    // Only memory stops it: the caller's process has taken the work in already, and what a start costs (a model
    // request sent, then a wait) is paid wherever it starts; through the queue it would only wait for the load to ease.
    if (this.options.pressure?.memoryOver()) return undefined;
    state.slotsUsed++;
    let used = false;
    return {
      token: `${this.id}:${randomUUID()}`,
      leaseMs: state.def.leaseMs,
      run: (claim) => {
        if (used) return;
        used = true;
        // Launched once the callbacks of this turn of the event loop are done: the caller (ingestion) answers its
        // request first, and the client reads that answer while the run works, instead of after the run's first
        // steps.
        setImmediate(() => {
          if (!this.stopped) {
            void this.launch(state, claim, false, true);
            return;
          }
          // Stopped meanwhile: the job goes back to the queue at once (with its NOTIFY) for another worker.
          state.slotsUsed--;
          releaseJob(this.options.pool, claim, { attemptsDelta: -1 }).catch((error) =>
            this.options.logger.warn({ err: error, job: claim.kind, key: claim.key }, "could not hand the job back"),
          );
        });
      },
      release: () => {
        if (used) return;
        used = true;
        state.slotsUsed--;
        if (state.sweep) void this.pump();
      },
    };
  }

  private kindState(kind: string): KindState {
    const state = this.kinds.get(kind);
    if (!state) throw new Error(`Unknown job kind: ${kind}`);
    return state;
  }

  private notified(payload: string): void {
    if (payload === SWEEP_PAYLOAD) {
      this.sweepAll();
      return;
    }
    const first = payload.indexOf("|");
    const second = payload.indexOf("|", first + 1);
    if (first <= 0 || second < 0) return;
    const state = this.kinds.get(payload.slice(0, first));
    if (!state) return;
    const dueAt = Number(payload.slice(first + 1, second));
    if (dueAt > Date.now() + DUE_SLACK_MS) {
      this.timer.wakeAt(dueAt);
      return;
    }
    state.wanted.add(payload.slice(second + 1));
    void this.pump();
  }

  private sweepAll(): void {
    for (const state of this.kinds.values()) state.sweep = true;
    this.timerStale = true;
    void this.pump();
  }

  /**
   * Claims work while slots are free: the keys named by notifications (one query each) or, while a backlog waits in the
   * table, what is due oldest first (one query per kind, as many rows as free slots). When a kind's slots are full its
   * remaining work waits in the table and a sweep runs as soon as a slot frees. Calls during a pump coalesce.
   */
  private pump(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    const cycle = this.pumpCycle();
    this.pumping = cycle;
    void cycle.finally(() => {
      if (this.pumping !== cycle) return;
      this.pumping = undefined;
      if (this.pumpAgain) void this.pump();
    });
    return cycle;
  }

  private async pumpCycle(): Promise<void> {
    const { pool } = this.options;
    try {
      do {
        this.pumpAgain = false;
        if (this.options.pressure?.over()) {
          // Under load: what was asked for stays in the table; everything is swept once the load eases.
          for (const state of this.kinds.values()) {
            if (state.wanted.size > 0) state.sweep = true;
            state.wanted.clear();
          }
          break;
        }
        for (const state of this.kinds.values()) {
          const { def } = state;
          if (state.sweep && state.wanted.size > 0) {
            // A backlog waits in the table: it is served oldest first (the notified keys are in it too), so work that
            // keeps arriving by notification never overtakes work that has waited for a slot. Not due yet: the timer.
            state.wanted.clear();
            this.timerStale = true;
          }
          while (!this.stopped && state.wanted.size > 0 && state.slotsUsed < def.concurrency) {
            const key = state.wanted.values().next().value as string;
            state.wanted.delete(key);
            const claim = await claimKey(pool, def.kind, key, this.id, def.leaseMs, def.preload?.bind(def));
            if (claim) this.launch(state, claim, false);
            // Running elsewhere, or not due by the database's clock: the timer decides when to look again.
            else this.timerStale = true;
          }
          if (state.slotsUsed >= def.concurrency) {
            // Full: what was asked for stays in the table; a sweep follows when a slot frees.
            if (state.wanted.size > 0) state.sweep = true;
            state.wanted.clear();
            continue;
          }
          if (state.sweep && !this.stopped) {
            const free = def.concurrency - state.slotsUsed;
            const claims = await claimDue(pool, def.kind, this.id, def.leaseMs, free);
            // Every free slot taken: more may be due; look again when a slot frees.
            state.sweep = claims.length === free;
            for (const claim of claims) this.launch(state, claim, false);
          }
        }
        if (this.timerStale && !this.stopped) {
          this.timerStale = false;
          const ms = await nextDueMs(pool, [...this.kinds.keys()]);
          this.timer.resetToDue(ms);
        }
      } while (this.pumpAgain && !this.stopped);
      if (this.failingSince !== undefined) this.recovered();
    } catch (error) {
      // Whatever was asked for is still in the table: sweep it all once the database answers. The timer is armed here,
      // so a runner whose statements fail never goes quiet.
      for (const state of this.kinds.values()) state.sweep = true;
      this.timerStale = true;
      if (this.failingSince === undefined) {
        this.failingSince = Date.now();
        this.options.logger.error(
          { err: error },
          "job runner could not claim work; retrying until the database answers",
        );
      }
      this.timer.resetTo(RETRY_AFTER_FAILURE_MS);
    }
  }

  private recovered(): void {
    const failedForMs = Date.now() - this.failingSince!;
    this.failingSince = undefined;
    this.options.logger.info(
      { failedForMs },
      "job runner resynchronised: the queue was swept and work is claimed again",
    );
    this.options.onResynchronised?.(failedForMs);
  }

  private launch(state: KindState, claim: Claim, inline: boolean, reserved = false): Promise<void> {
    if (!inline && !reserved) state.slotsUsed++;
    const controller = new AbortController();
    const run: ActiveRun = { controller, done: Promise.resolve() };
    this.active.add(run);
    const deps = {
      pool: this.options.pool,
      logger: this.options.logger,
      wakeAt: (t: number) => this.timer.wakeAt(t),
      leases: this.leases,
    };
    run.done = runJob(deps, state.def, claim, controller, inline)
      .catch((error) => this.options.logger.error({ err: error, job: claim.kind, key: claim.key }, "job run failed"))
      .finally(() => {
        this.active.delete(run);
        if (inline) return;
        state.slotsUsed--;
        // Work that arrived while every slot was busy waits in the table: look for it now.
        if (state.sweep) void this.pump();
      });
    return run.done;
  }
}
