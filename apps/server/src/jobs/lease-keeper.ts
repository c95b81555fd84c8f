import type pg from "pg";
import type { Logger } from "pino";
import { renewLeases } from "./queue.js";
import type { JobLease } from "./types.js";

interface Held {
  lease: JobLease;
  leaseMs: number;
  /** performance.now() of the claim or the last renewal that kept it. */
  renewedAt: number;
  lost(): void;
}

/** How often the keeper looks for leases due for renewal: often enough that a lease is renewed by half its life. */
export function keeperTickMs(leaseMs: number): number {
  return Math.min(5_000, Math.max(250, Math.floor(leaseMs / 12)));
}

/**
 * Renews the leases of every run in this process with one statement per tick, rather than one timer and one
 * statement per run: a lease is renewed once a third of it has passed since the claim or its last renewal (so a run
 * shorter than that is never renewed), at the latest a twelfth later (or 250 ms), and those due together share the
 * statement. A lease the statement no longer finds ours is reported lost (the run aborts, as before).
 */
export class LeaseKeeper {
  private readonly held = new Set<Held>();
  private timer: NodeJS.Timeout | undefined;
  private tickMs = Number.POSITIVE_INFINITY;
  private renewing = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly logger: Logger,
  ) {}

  /** Keeps `lease` until the returned function is called; `lost` is called if another worker holds it now. */
  hold(lease: JobLease, leaseMs: number, lost: () => void): () => void {
    const entry: Held = { lease, leaseMs, renewedAt: performance.now(), lost };
    this.held.add(entry);
    const tick = keeperTickMs(leaseMs);
    if (tick < this.tickMs) {
      this.tickMs = tick;
      clearInterval(this.timer);
      this.timer = undefined;
    }
    this.timer ??= setInterval(() => void this.renewDue(), this.tickMs);
    return () => {
      this.held.delete(entry);
      if (this.held.size === 0) this.stop();
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.tickMs = Number.POSITIVE_INFINITY;
  }

  private async renewDue(): Promise<void> {
    // A tick while the last statement still runs waits for the next: it would renew the same leases.
    if (this.renewing) return;
    const now = performance.now();
    const due = [...this.held].filter((h) => now - h.renewedAt >= h.leaseMs / 3);
    if (due.length === 0) return;
    this.renewing = true;
    try {
      const byLeaseMs = new Map<number, Held[]>();
      for (const h of due) byLeaseMs.set(h.leaseMs, [...(byLeaseMs.get(h.leaseMs) ?? []), h]);
      for (const [leaseMs, entries] of byLeaseMs) {
        const sentAt = performance.now();
        try {
          const ours = await renewLeases(
            this.pool,
            entries.map((e) => e.lease),
            leaseMs,
          );
          for (const entry of entries) {
            if (!this.held.has(entry)) continue;
            if (ours.has(entry.lease)) entry.renewedAt = sentAt;
            else entry.lost();
          }
        } catch (error) {
          // Tried again at the next tick: the lease still has at least half its life.
          this.logger.warn({ err: error, leases: entries.length }, "lease renewal failed");
        }
      }
    } finally {
      this.renewing = false;
    }
  }
}
