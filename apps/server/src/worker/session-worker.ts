import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import type { AppContext } from "../context.js";
import { errorEvent, idleEvent, toolResultEvent } from "../runtime/loop/events.js";
import { analyzeLog } from "../runtime/loop/log-state.js";
import { type LoopDeps, runSessionPass } from "../runtime/loop/run-session.js";
import { commitFenced, LeaseLost, SessionGone } from "../runtime/loop/session-writer.js";
import { readEvents, type StoredEvent } from "../sessions/event-log.js";
import { subscribeSessionEvents } from "../sessions/event-notifier.js";
import { type Claim, claimRun, completeRun, dropRun, nextExpiryMs, releaseRun, renewLease } from "./queue.js";
import { SESSION_WORK_CHANNEL } from "./request-turn.js";
import type { WorkerSettings } from "./settings.js";

/** The worker is stopping: the pass gives its lease back and another worker (or the next start) resumes it. */
export class WorkerStopping extends Error {
  override readonly name = "WorkerStopping";
  constructor() {
    super("The worker is stopping");
  }
}

/** What delegation needs from the worker: run a child session here, or wait for whoever runs it. */
export interface SessionDriver {
  readonly leaseMs: number;
  /** A token for a run row inserted already claimed (`insertClaimedRun`). */
  newLeaseToken(): string;
  /**
   * Resolves once the session is settled (idle, nothing left to do): runs its passes in this process whenever its work
   * can be claimed (or with `claim`, a row this process inserted already claimed), otherwise waits for the worker that
   * holds it. Rejects with the signal's reason when `signal` aborts; a pass running here then carries on by itself.
   */
  runUntilSettled(sessionId: string, signal: AbortSignal, claim?: Claim): Promise<void>;
}

interface ActiveRun {
  claim: Claim;
  controller: AbortController;
  done: Promise<void>;
  inline: boolean;
}

const LISTEN_RETRY_MIN_MS = 100;
const LISTEN_RETRY_MAX_MS = 5_000;

/**
 * A worker process's share of the durable loop. New work arrives by NOTIFY on `session_work` (sent by `requestTurn` at
 * commit); each notification makes the worker claim rows while it has free slots. A timer armed at the earliest lease
 * expiry picks up rows whose worker died (recovery, not polling: new work never waits for it). While a pass runs its
 * lease is renewed every third of `leaseMs`; losing it aborts the pass without writing.
 */
export class SessionWorker implements SessionDriver {
  readonly leaseMs: number;
  private readonly id = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private tokenCounter = 0;
  private readonly runs = new Map<string, ActiveRun>();
  private slotsUsed = 0;
  private listener: pg.Client | undefined;
  private listenRetryMs = LISTEN_RETRY_MIN_MS;
  private listenTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private readonly wanted = new Set<string>();
  private sweepWanted = false;
  /** Claiming stopped because every slot was busy: sweep when one frees. */
  private starved = false;
  private stopped = false;
  /** The recovery check in flight, awaited by stop(). */
  private recovery: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: WorkerSettings,
    private readonly deps: LoopDeps,
  ) {
    this.leaseMs = settings.leaseMs;
  }

  async start(): Promise<void> {
    await this.listen();
    // Work requested while no worker listened is in the table already.
    void this.recoveryTick();
  }

  /** Stops claiming, aborts the running passes and gives their leases back (another worker resumes them at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.expiryTimer);
    clearTimeout(this.listenTimer);
    // A claim or a recovery check in flight may still launch a pass or use the pool: let them end first.
    await Promise.all([this.pumping?.catch(() => {}), this.recovery]);
    const active = [...this.runs.values()];
    for (const run of active) run.controller.abort(new WorkerStopping());
    const listener = this.listener;
    this.listener = undefined;
    await Promise.all([...active.map((run) => run.done), listener?.end().catch(() => {})]);
  }

  newLeaseToken(): string {
    return `${this.id}:${++this.tokenCounter}`;
  }

  // ---- new work: LISTEN session_work ----

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client(this.ctx.db.pool.options);
    const lost = (error?: unknown) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      void client.end().catch(() => {});
      this.scheduleListen(error);
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (message) => {
      if (message.channel === SESSION_WORK_CHANNEL && message.payload) this.wantSession(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SESSION_WORK_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      this.scheduleListen(error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
    this.listenRetryMs = LISTEN_RETRY_MIN_MS;
  }

  /**
   * Follows a session's log through the process's shared `session_events` listener: `onSeq` is called with its newest
   * `seq` whenever entries are committed, and once after the listener (re)connects (notifications sent while it was
   * down are lost). Subscribe, then read: nothing is missed.
   */
  subscribe(sessionId: string, onSeq: (seq: number) => void): () => void {
    return subscribeSessionEvents(this.ctx, sessionId, onSeq);
  }

  private scheduleListen(error: unknown): void {
    if (this.stopped || this.listenTimer) return;
    this.ctx.logger.warn({ err: error, retryInMs: this.listenRetryMs }, "worker listener disconnected; reconnecting");
    this.listenTimer = setTimeout(() => {
      this.listenTimer = undefined;
      // Notifications sent while disconnected are lost: look at the queue once connected.
      void this.listen().then(() => this.requestSweep());
    }, this.listenRetryMs);
    this.listenRetryMs = Math.min(this.listenRetryMs * 2, LISTEN_RETRY_MAX_MS);
  }

  // ---- claiming ----

  /** A notification named this session: try to claim it. */
  private wantSession(sessionId: string): void {
    this.wanted.add(sessionId);
    void this.pump();
  }

  /** Claim whatever is claimable, oldest request first, while slots are free. */
  private requestSweep(): void {
    this.sweepWanted = true;
    void this.pump();
  }

  /**
   * Claims work while slots are free: first the sessions named by notifications (one query each), then, when asked, the
   * oldest claimable rows. When the slots are full the remaining work waits in the table and a sweep runs as soon as a
   * slot frees. Calls during a pump coalesce.
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
      // A request that came after the cycle's last look (it may even have finished synchronously).
      if (this.pumpAgain) void this.pump();
    });
    return cycle;
  }

  private async pumpCycle(): Promise<void> {
    try {
      do {
        this.pumpAgain = false;
        while (!this.stopped && (this.wanted.size > 0 || this.sweepWanted)) {
          if (this.slotsUsed >= this.settings.concurrency) {
            this.starved = true;
            this.wanted.clear();
            this.sweepWanted = false;
            break;
          }
          const sessionId: string | undefined = this.wanted.values().next().value;
          if (sessionId !== undefined) this.wanted.delete(sessionId);
          const claim = await claimRun(this.ctx.db.pool, this.newLeaseToken(), this.leaseMs, sessionId);
          if (claim) this.launch(claim, false);
          else if (sessionId === undefined) this.sweepWanted = false;
        }
      } while (this.pumpAgain && !this.stopped);
    } catch (error) {
      this.ctx.logger.error({ err: error }, "worker could not claim work; retrying");
      this.retryTimer(1_000);
    }
  }

  /**
   * Recovery, at lease granularity: claims rows whose lease expired (their worker died) and re-arms itself at the
   * earliest lease expiry still ahead (at most one lease period away: a lease granted later expires later).
   */
  private recoveryTick(): Promise<void> {
    this.recovery = this.recoveryPass();
    return this.recovery;
  }

  private async recoveryPass(): Promise<void> {
    if (this.stopped) return;
    let next = this.leaseMs;
    try {
      this.sweepWanted = true;
      await this.pump();
      if (this.stopped) return;
      const ms = await nextExpiryMs(this.ctx.db.pool);
      if (ms !== null) next = Math.max(100, Math.min(ms + 50, this.leaseMs));
    } catch (error) {
      this.ctx.logger.warn({ err: error }, "lease recovery check failed");
    }
    if (this.stopped) return;
    clearTimeout(this.expiryTimer);
    this.expiryTimer = setTimeout(() => void this.recoveryTick(), next);
    this.expiryTimer.unref();
  }

  /** A sweep after `ms` (a retry delay, or after a failed claim). */
  private retryTimer(ms: number): void {
    if (this.stopped) return;
    setTimeout(() => this.requestSweep(), ms).unref();
  }

  private launch(claim: Claim, inline: boolean): ActiveRun {
    if (!inline) this.slotsUsed++;
    const controller = new AbortController();
    const run: ActiveRun = { claim, controller, inline, done: Promise.resolve() };
    this.runs.set(claim.token, run);
    run.done = this.runClaim(run).finally(() => {
      this.runs.delete(claim.token);
      if (inline) return;
      this.slotsUsed--;
      if (this.starved) {
        this.starved = false;
        this.requestSweep();
      }
    });
    return run;
  }

  // ---- running a claim ----

  private async runClaim(run: ActiveRun): Promise<void> {
    const { ctx } = this;
    const pool = ctx.db.pool;
    const claim = run.claim;
    const log = ctx.logger.child({ sessionId: claim.sessionId });
    const heartbeat = setInterval(
      () => {
        renewLease(pool, claim, this.leaseMs)
          .then((ours) => {
            if (!ours) run.controller.abort(new LeaseLost(claim.sessionId));
          })
          .catch((error) => log.warn({ err: error }, "lease renewal failed"));
      },
      Math.max(250, Math.floor(this.leaseMs / 3)),
    );
    try {
      if (claim.attempts > this.settings.maxAttempts) {
        await this.giveUp(claim);
        return;
      }
      for (;;) {
        await runSessionPass(this.deps, { sessionId: claim.sessionId, token: claim.token }, run.controller.signal);
        const outcome = await completeRun(pool, claim, this.leaseMs);
        if (outcome.kind !== "again") break;
        claim.generation = outcome.generation;
        claim.attempts = 0;
      }
    } catch (error) {
      if (error instanceof WorkerStopping) {
        await releaseRun(pool, claim).catch((e) => log.warn({ err: e }, "could not release the lease"));
      } else if (error instanceof LeaseLost) {
        log.warn("lease lost: another worker took the session over");
      } else if (error instanceof SessionGone) {
        // Deleted while running: its run row went with it.
      } else {
        const delayMs = Math.min(60_000, 1_000 * 2 ** Math.max(0, claim.attempts - 1));
        log.error({ err: error, attempts: claim.attempts, retryInMs: delayMs }, "session pass failed");
        await releaseRun(pool, claim, delayMs).catch((e) => log.warn({ err: e }, "could not release the lease"));
        this.retryTimer(delayMs + 50);
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * The session was claimed too many times without a pass ending normally (each time the worker died or the pass
   * failed): stop it with an explicit error instead of retrying forever. Tool uses left without a result are closed
   * so that the next turn does not run them again.
   */
  private async giveUp(claim: Claim): Promise<void> {
    const events = await readAll(this.ctx, claim.sessionId);
    const state = analyzeLog(events);
    const message =
      `The agent loop stopped after ${claim.attempts - 1} attempts that did not complete ` +
      "(the worker running this session stopped or failed each time)";
    const unresolved = state.steps.flatMap((s) => s.toolUses).filter((u) => !u.result);
    await commitFenced(this.ctx.db.pool, { sessionId: claim.sessionId, token: claim.token }, () => ({
      events: [
        ...unresolved.map((u) => toolResultEvent(u, `Not completed: ${message}`, true)),
        errorEvent("session.loop_failed", message),
        idleEvent("error"),
      ],
      status: { status: "idle", stopReason: "error", pendingActions: [] },
    }));
    await dropRun(this.ctx.db.pool, claim);
    this.ctx.logger.error(
      { sessionId: claim.sessionId, attempts: claim.attempts },
      "session stopped: too many attempts",
    );
  }

  // ---- delegation ----

  async runUntilSettled(sessionId: string, signal: AbortSignal, claim?: Claim): Promise<void> {
    let wake: (() => void) | undefined;
    let dirty = false;
    const unsubscribe = this.subscribe(sessionId, () => {
      dirty = true;
      wake?.();
    });
    let given = claim;
    try {
      for (;;) {
        if (signal.aborted) throw signal.reason;
        if (this.stopped) throw new WorkerStopping();
        dirty = false;
        const mine = given ?? (await claimRun(this.ctx.db.pool, this.newLeaseToken(), this.leaseMs, sessionId));
        given = undefined;
        if (mine) {
          const run = this.launch(mine, true);
          await waitOrAbort(run.done, signal);
          continue;
        }
        const events = await readAll(this.ctx, sessionId);
        if (events.length === 0 || isSettled(events)) return;
        // Someone else runs it: wait for its next entry, or for its lease to expire (then claim it here).
        const expiry = await nextExpiryMs(this.ctx.db.pool, sessionId);
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(done, Math.min(expiry === null ? this.leaseMs : expiry + 50, this.leaseMs));
          function done() {
            clearTimeout(timer);
            signal.removeEventListener("abort", onAbort);
            wake = undefined;
            resolve();
          }
          function onAbort() {
            clearTimeout(timer);
            wake = undefined;
            reject(signal.reason);
          }
          wake = done;
          if (signal.aborted) return onAbort();
          if (dirty) return done();
          signal.addEventListener("abort", onAbort, { once: true });
        });
      }
    } finally {
      unsubscribe();
    }
  }
}

/** Idle and nothing left to do: no open turn, and no input the loop still has to handle. */
export function isSettled(events: readonly StoredEvent[]): boolean {
  const state = analyzeLog(events);
  return !state.turnOpen && ["none", "finish", "await_actions"].includes(state.next.kind);
}

export async function readAll(ctx: AppContext, sessionId: string): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (;;) {
    const page = await readEvents(ctx.db.pool, sessionId, out.length > 0 ? out[out.length - 1]!.seq : 0, 5_000);
    out.push(...page);
    if (page.length < 5_000) return out;
  }
}

function waitOrAbort(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
