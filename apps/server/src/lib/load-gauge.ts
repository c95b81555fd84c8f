import { monitorEventLoopDelay } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import type pg from "pg";
import type { Logger } from "pino";
import { integerSetting } from "./env.js";

/** What makes a worker claim no new work: the resources a process really runs out of, not a count of turns. */
export interface LoadLimits {
  /** p99 event-loop delay over the last interval (`WORKER_MAX_EVENT_LOOP_DELAY_MS`, default 200; 0: not watched). */
  maxEventLoopDelayMs: number;
  /** Heap in use as a share of V8's heap limit (`WORKER_MAX_HEAP_PERCENT`, default 85; 100: not watched). */
  maxHeapPercent: number;
  /** Queries waiting for a pooled connection (`WORKER_MAX_POOL_WAITERS`, default the pool's size; 0: not watched). */
  maxPoolWaiters: number;
}

export function readLoadLimits(env: Record<string, string | undefined>, poolMax: number): LoadLimits {
  return {
    maxEventLoopDelayMs: integerSetting(env, "WORKER_MAX_EVENT_LOOP_DELAY_MS", 200, 0, 60_000),
    maxHeapPercent: integerSetting(env, "WORKER_MAX_HEAP_PERCENT", 85, 10, 100),
    maxPoolWaiters: integerSetting(env, "WORKER_MAX_POOL_WAITERS", poolMax, 0, 100_000),
  };
}

/**
 * Back-pressure for the job runner: `over()` names the exhausted resource (what the runner claims from the queue waits),
 * `memoryOver()` only memory (what a process's own API hands it to start waits), and `onRelief` calls back once
 * `over()` is null again.
 */
export interface LoadPressure {
  over(): string | null;
  memoryOver(): string | null;
  onRelief(callback: () => void): void;
}

const SAMPLE_MS = 250;

/**
 * Samples the process's event-loop delay, heap and database pool every 250 ms. While one is past its limit the worker
 * claims no new work (what is queued waits in the table, for this worker later or for another one: nothing is
 * dropped); turns already running go on. Transitions are logged once each way.
 */
export class LoadGauge implements LoadPressure {
  private readonly delay = monitorEventLoopDelay({ resolution: 10 });
  private readonly timer: NodeJS.Timeout;
  private readonly heapLimit = getHeapStatistics().heap_size_limit;
  private reason: string | null = null;
  private heapReason: string | null = null;
  private loopDelayMs = 0;
  private readonly relief = new Set<() => void>();

  constructor(
    private readonly limits: LoadLimits,
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {
    this.delay.enable();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  over(): string | null {
    return this.reason;
  }

  memoryOver(): string | null {
    return this.heapReason;
  }

  onRelief(callback: () => void): void {
    this.relief.add(callback);
  }

  /** The last interval's p99 event-loop delay, in milliseconds. */
  get eventLoopDelayMs(): number {
    return this.loopDelayMs;
  }

  stop(): void {
    clearInterval(this.timer);
    this.delay.disable();
    this.relief.clear();
  }

  private sample(): void {
    this.loopDelayMs = this.delay.percentile(99) / 1e6;
    this.delay.reset();
    const { maxEventLoopDelayMs, maxHeapPercent, maxPoolWaiters } = this.limits;
    const heapPercent = (process.memoryUsage().heapUsed / this.heapLimit) * 100;
    this.heapReason =
      maxHeapPercent < 100 && heapPercent > maxHeapPercent
        ? `heap ${Math.round(heapPercent)} % of its limit > ${maxHeapPercent} %`
        : null;
    const loopReason =
      maxEventLoopDelayMs > 0 && this.loopDelayMs > maxEventLoopDelayMs
        ? `event-loop delay ${Math.round(this.loopDelayMs)} ms > ${maxEventLoopDelayMs} ms`
        : null;
    const poolReason =
      maxPoolWaiters > 0 && this.pool.waitingCount > maxPoolWaiters
        ? `${this.pool.waitingCount} queries wait for a database connection > ${maxPoolWaiters}`
        : null;
    const reason = this.heapReason ?? loopReason ?? poolReason;
    const was = this.reason;
    this.reason = reason;
    if (reason && !was) this.logger.warn({ reason }, "worker under load: claiming no new work until it eases");
    if (!reason && was) {
      this.logger.info("worker load eased: claiming work again");
      for (const callback of this.relief) callback();
    }
  }
}
