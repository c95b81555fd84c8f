/** The longest a runner sleeps without looking at the queue (a fallback: work normally arrives by notification). */
const MAX_SLEEP_MS = 30_000;

/**
 * A runner's one timer: it fires `onWake` at the earliest time asked for, at most MAX_SLEEP_MS away (a far-off time,
 * such as a yearly schedule's next run, would overflow setTimeout's 32-bit delay and fire at once). Unref'd: it never
 * keeps a process alive by itself.
 */
export class WakeTimer {
  private timer: NodeJS.Timeout | undefined;
  private at = Number.POSITIVE_INFINITY;
  private stopped = false;

  constructor(private readonly onWake: () => void) {}

  /** Fires at `requested` unless armed earlier already. */
  wakeAt(requested: number): void {
    const time = Math.min(requested, Date.now() + MAX_SLEEP_MS);
    if (this.stopped || time >= this.at) return;
    clearTimeout(this.timer);
    this.at = time;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.at = Number.POSITIVE_INFINITY;
        this.onWake();
      },
      Math.max(0, time - Date.now()),
    );
    this.timer.unref();
  }

  /** Fires in `delayMs` (at most MAX_SLEEP_MS), replacing whatever was armed, earlier or later. */
  resetTo(delayMs: number): void {
    clearTimeout(this.timer);
    this.at = Number.POSITIVE_INFINITY;
    this.wakeAt(Date.now() + Math.min(delayMs, MAX_SLEEP_MS));
  }

  /** Fires when the earliest due row is due (`ms` from now; null: none, look again after MAX_SLEEP_MS). */
  resetToDue(ms: number | null): void {
    this.resetTo(ms === null ? MAX_SLEEP_MS : Math.max(50, ms + 25));
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
