import type pg from "pg";
import { entryAfter } from "../../sessions/index.js";
import { EV } from "./events.js";

/** A `user.interrupt` reached the session while a step ran: the step stops, the log decides what follows. */
export class InterruptRequested extends Error {
  override readonly name = "InterruptRequested";
  constructor() {
    super("Interrupted by a user.interrupt event");
  }
}

/**
 * Watches a session's notifications for the whole pass: a `user.interrupt` newer than what the loop has analysed
 * aborts the current step (`signal`). Entries the pass writes itself or has read are not looked at again.
 */
export class InterruptWatch {
  /** The newest `seq` the loop has analysed: only an interrupt after it stops the current step. */
  analysedSeq = 0;
  private knownSeq = 0;
  private controller = new AbortController();
  private checking: Promise<void> | undefined;
  private recheck = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly pool: pg.Pool,
    private readonly sessionId: string,
    subscribe: (sessionId: string, onSeq: (seq: number) => void) => () => void,
    private readonly onError: (error: unknown) => void,
  ) {
    this.unsubscribe = subscribe(sessionId, (seq) => this.onSeq(seq));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Entries up to `seq` are known (read, or about to be written by the pass): their notifications are ignored. */
  known(seq: number): void {
    this.knownSeq = Math.max(this.knownSeq, seq);
  }

  /** A new step begins: a past interrupt was handled by the analysis. */
  renew(): void {
    if (this.controller.signal.aborted) this.controller = new AbortController();
  }

  close(): void {
    this.unsubscribe();
  }

  private onSeq(seq: number): void {
    if (seq <= this.knownSeq) return;
    if (this.checking) {
      this.recheck = true;
      return;
    }
    this.checking = this.check()
      .catch(this.onError)
      .finally(() => {
        this.checking = undefined;
      });
  }

  private async check(): Promise<void> {
    do {
      this.recheck = false;
      const seq = await entryAfter(this.pool, this.sessionId, this.analysedSeq, EV.userInterrupt);
      if (seq !== undefined && seq > this.analysedSeq && !this.controller.signal.aborted) {
        this.controller.abort(new InterruptRequested());
      }
    } while (this.recheck);
  }
}
