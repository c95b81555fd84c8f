import type { AppContext } from "../context.js";
import { onePerOwner } from "../lib/per-owner.js";
import { announceCommitted } from "./event-notifier.js";
import type { StoredEvent } from "./log/index.js";

/** How long committed entries stay here: a follower in this process is told of them within milliseconds. */
const KEEP_MS = 2_000;

interface Run {
  /** `seq` of `events[0]`; the run is gap-free. */
  first: number;
  events: StoredEvent[];
  at: number;
}

/**
 * The entries this process committed to session logs in the last moments, so that an SSE follower in the same
 * process (`ROLE=all`, or an API that runs a delegation) sends them without reading them back. A follower told of new
 * entries asks `read` for them: it first waits for this process's commit in flight to that session, if any (the
 * notification can arrive before the commit's answer), then gets them from here when every one of them is here, or
 * null (committed by another process, or gone from here): then it reads the log. Only what a commit returned is kept,
 * and only after it committed.
 */
export class RecentEvents {
  private readonly runs = new Map<string, Run>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private sweeper: NodeJS.Timeout | undefined;

  /** `announce`: tells the session's followers in this process of what a commit stored, once it is kept here. */
  constructor(private readonly announce: (sessionId: string, seq: number) => void = () => {}) {}

  /** Marks a commit to the session's log in flight, and keeps what it stored once it committed. */
  committing(sessionId: string, commit: Promise<StoredEvent[]>): Promise<StoredEvent[]> {
    const done = commit.then((stored) => {
      this.remember(sessionId, stored);
      if (stored.length > 0) this.announce(sessionId, stored[stored.length - 1]!.seq);
      return stored;
    });
    // Settles after `remember`: a follower waiting on it finds the entries.
    const settled = done.then(
      () => {},
      () => {},
    );
    this.inFlight.set(sessionId, settled);
    void settled.then(() => {
      if (this.inFlight.get(sessionId) === settled) this.inFlight.delete(sessionId);
    });
    return done;
  }

  /** The entries after `afterSeq` up to `uptoSeq`, when all of them are here; null otherwise. */
  async read(sessionId: string, afterSeq: number, uptoSeq: number): Promise<StoredEvent[] | null> {
    await this.inFlight.get(sessionId);
    const run = this.runs.get(sessionId);
    if (!run || afterSeq + 1 < run.first || uptoSeq > run.first + run.events.length - 1) return null;
    if (Date.now() - run.at > KEEP_MS) return null;
    return run.events.slice(afterSeq + 1 - run.first, uptoSeq + 1 - run.first);
  }

  private remember(sessionId: string, stored: StoredEvent[]): void {
    if (stored.length === 0) return;
    const run = this.runs.get(sessionId);
    const next = run ? run.first + run.events.length : -1;
    if (run && stored[0]!.seq === next) {
      run.events.push(...stored);
      run.at = Date.now();
    } else {
      this.runs.set(sessionId, { first: stored[0]!.seq, events: [...stored], at: Date.now() });
    }
    this.sweeper ??= setInterval(() => this.sweep(), KEEP_MS).unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, run] of this.runs) if (now - run.at > KEEP_MS) this.runs.delete(id);
    if (this.runs.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

/** The process's recent entries (one per application context). */
export const recentEvents: (ctx: AppContext) => RecentEvents = onePerOwner(
  (ctx: AppContext) => new RecentEvents((sessionId, seq) => announceCommitted(ctx, sessionId, seq)),
);
