import type { AppContext } from "../context.js";
import { notifyAfterCommit } from "../lib/after-commit.js";
import { isDatabaseUnavailable } from "../lib/database-unavailable.js";
import { onePerOwner } from "../lib/per-owner.js";
import { SESSION_EVENTS_CHANNEL } from "./log/index.js";

/** Called with the newest committed `seq` of the session (a lower bound: entries up to it are readable). */
export type SeqListener = (seq: number) => void;

/** A resynchronisation that met an unreachable database (just back from a restart) is tried again this soon. */
const RESYNC_RETRY_MS = 250;
/**
 * While a process has followers, it re-reads their heads this often: the fallback for a notice never sent (its writer
 * died between the commit and the notice, and no process started since). Never the way entries are normally found.
 */
const SAFETY_RESYNC_MS = 30_000;

/**
 * Fans the `session_events` notifications of the process's shared listener (`ctx.listener`) out to the followers of
 * each session: SSE streams, the loop watching for interrupts, delegation waiting on a child. Notifications sent while
 * the listener was disconnected are lost, so whenever it (re)connects every follower is told its session's current
 * `lastSeq`: a follower that reads the log from where it stands never misses an entry. Writers notify after their
 * commit (`announceAppended`), so a writer that dies in between leaves a notice unsent: every process asks the others
 * to re-read their heads when it starts (`*`, see `announceProcessStart`), which covers a supervised or orchestrated
 * restart, and a process with followers re-reads them every SAFETY_RESYNC_MS in case none does.
 */
class SessionEventNotifier {
  private readonly followers = new Map<string, Set<SeqListener>>();
  private attached = false;
  private retry: NodeJS.Timeout | undefined;
  private safety: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: AppContext) {}

  subscribe(sessionId: string, listener: SeqListener): () => void {
    this.attach();
    let set = this.followers.get(sessionId);
    if (!set) {
      set = new Set();
      this.followers.set(sessionId, set);
    }
    set.add(listener);
    this.safety ??= setInterval(() => void this.resync(), SAFETY_RESYNC_MS).unref();
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const current = this.followers.get(sessionId);
      current?.delete(listener);
      if (current?.size === 0) this.followers.delete(sessionId);
      if (this.followers.size === 0) {
        clearInterval(this.safety);
        this.safety = undefined;
      }
    };
  }

  private attach(): void {
    if (this.attached) return;
    this.attached = true;
    this.ctx.listener.subscribe(SESSION_EVENTS_CHANNEL, {
      onNotification: (payload) => this.dispatch(payload),
      onConnected: () => void this.resync(),
    });
  }

  /** Tells every follower the current head of its session (notifications may have been missed while disconnected). */
  private async resync(): Promise<void> {
    clearTimeout(this.retry);
    this.retry = undefined;
    const ids = [...this.followers.keys()];
    if (ids.length === 0) return;
    try {
      const { rows } = await this.ctx.db.pool.query<{ id: string; lastSeq: number }>(
        'SELECT "id", "lastSeq" FROM sessions WHERE "id" = ANY($1::text[])',
        [ids],
      );
      for (const row of rows) this.emit(row.id, row.lastSeq);
    } catch (error) {
      this.ctx.logger.warn({ err: error }, "could not resynchronise session followers");
      // Until it succeeds a follower could wait for an entry committed while the listener was down: try again.
      if (isDatabaseUnavailable(error) && !this.ctx.stopping.aborted) {
        this.retry = setTimeout(() => void this.resync(), RESYNC_RETRY_MS);
        this.retry.unref();
      }
    }
  }

  private dispatch(payload: string): void {
    if (payload === "*") {
      void this.resync();
      return;
    }
    const colon = payload.lastIndexOf(":");
    const seq = Number(payload.slice(colon + 1));
    if (colon <= 0 || !Number.isInteger(seq)) return;
    this.emit(payload.slice(0, colon), seq);
  }

  emit(sessionId: string, seq: number): void {
    const set = this.followers.get(sessionId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(seq);
      } catch (error) {
        this.ctx.logger.error({ err: error, sessionId }, "session event listener failed");
      }
    }
  }
}

const notifierOf = onePerOwner((ctx: AppContext) => new SessionEventNotifier(ctx));

/**
 * Calls `onSeq` with the session's newest `seq` whenever entries are committed to its log, and once whenever the shared
 * listener (re)connects. Subscribe first, then read the log from where you stand, then read again on each call: no
 * entry is missed. Returns the unsubscribe function (idempotent).
 */
export function subscribeSessionEvents(ctx: AppContext, sessionId: string, onSeq: SeqListener): () => void {
  return notifierOf(ctx).subscribe(sessionId, onSeq);
}

/**
 * Asks every process to re-read the heads of the sessions it follows (a notice on `session_events`): sent by a process
 * when it starts, since the process it replaces may have died between a commit and its notice.
 */
export function announceProcessStart(ctx: AppContext): Promise<void> {
  return notifyAfterCommit(ctx.db.pool, [{ channel: SESSION_EVENTS_CHANNEL, payload: "*" }]);
}

/**
 * Tells the session's followers in this process of entries this process just committed (up to `seq`), without waiting
 * for the notification's round trip through PostgreSQL (which comes too, and finds them told).
 */
export function announceCommitted(ctx: AppContext, sessionId: string, seq: number): void {
  notifierOf(ctx).emit(sessionId, seq);
}
