import pg from "pg";
import type { AppContext } from "../context.js";

/** Called with the newest committed `seq` of the session (a lower bound: entries up to it are readable). */
export type SeqListener = (seq: number) => void;

const CHANNEL = "session_events";
/** Names the connection in `pg_stat_activity`. */
export const SESSION_EVENTS_APPLICATION_NAME = "agent-platform session-events listener";
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;
const CLOSE_GRACE_MS = 10_000;

/**
 * One `LISTEN session_events` connection per process (per database handle), shared by every follower: SSE streams,
 * the worker. The `session_events` trigger notifies `<sessionId>:<lastSeq>` at commit; this fans it out to the
 * in-process subscribers of that session.
 *
 * The connection opens with the first subscriber and closes with the last one. Notifications sent while it is down
 * are lost, so whenever it (re)connects every subscriber is told its session's current `lastSeq`: a subscriber that
 * reads the log from where it stands never misses an entry, whatever the timing of `subscribe` and the connection.
 */
class SessionEventNotifier {
  private readonly listeners = new Map<string, Set<SeqListener>>();
  private client: pg.Client | undefined;
  private connecting = false;
  private retryDelay = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Called when the last subscriber leaves (used by `close`). */
  private onIdle: (() => void) | undefined;

  constructor(private readonly ctx: AppContext) {}

  subscribe(sessionId: string, listener: SeqListener): () => void {
    if (this.closed) return () => {};
    let set = this.listeners.get(sessionId);
    if (!set) {
      set = new Set();
      this.listeners.set(sessionId, set);
    }
    set.add(listener);
    this.ensureConnected();
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const current = this.listeners.get(sessionId);
      current?.delete(listener);
      if (current?.size === 0) this.listeners.delete(sessionId);
      if (this.listeners.size === 0) {
        void this.disconnect();
        this.onIdle?.();
      }
    };
  }

  /**
   * Ends the connection for good (shutdown): waits up to `graceMs` for the last subscriber to leave (a worker draining
   * its turn still wants interrupts), then drops the remaining ones. Later subscriptions receive nothing.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    if (this.listeners.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, graceMs);
        const previous = this.onIdle;
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.onIdle = () => {
          previous?.();
          done();
        };
      });
    }
    this.onIdle = undefined;
    this.closed = true;
    this.listeners.clear();
    await this.disconnect();
  }

  private ensureConnected(): void {
    if (this.client || this.connecting || this.retryTimer || this.closed) return;
    this.connecting = true;
    void this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.ctx.db.pool.options, application_name: SESSION_EVENTS_APPLICATION_NAME });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    client.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload) this.dispatch(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      this.connecting = false;
      await client.end().catch(() => {});
      this.scheduleReconnect(error);
      return;
    }
    this.connecting = false;
    if (this.closed || this.listeners.size === 0) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.retryDelay = RECONNECT_MIN_MS;
    await this.resync(client);
  }

  /** Tells every subscriber the current head of its session (notifications may have been missed while down). */
  private async resync(client: pg.Client): Promise<void> {
    const ids = [...this.listeners.keys()];
    if (ids.length === 0) return;
    try {
      const { rows } = await client.query<{ id: string; lastSeq: number }>(
        'SELECT "id", "lastSeq" FROM sessions WHERE "id" = ANY($1::text[])',
        [ids],
      );
      for (const row of rows) this.emit(row.id, row.lastSeq);
    } catch (error) {
      this.lost(client, error);
    }
  }

  private dispatch(payload: string): void {
    const colon = payload.lastIndexOf(":");
    const seq = Number(payload.slice(colon + 1));
    if (colon <= 0 || !Number.isInteger(seq)) return;
    this.emit(payload.slice(0, colon), seq);
  }

  private emit(sessionId: string, seq: number): void {
    const set = this.listeners.get(sessionId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(seq);
      } catch (error) {
        this.ctx.logger.error({ err: error, sessionId }, "session event listener failed");
      }
    }
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => {});
    if (this.closed || this.listeners.size === 0) return;
    this.scheduleReconnect(error);
  }

  private scheduleReconnect(error: unknown): void {
    if (this.closed || this.listeners.size === 0 || this.retryTimer) return;
    this.ctx.logger.warn(
      { err: error, retryInMs: this.retryDelay },
      "session event listener disconnected; reconnecting",
    );
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.ensureConnected();
    }, this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, RECONNECT_MAX_MS);
  }

  private async disconnect(): Promise<void> {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
    }
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

const notifiers = new WeakMap<AppContext, SessionEventNotifier>();

function notifierOf(ctx: AppContext): SessionEventNotifier {
  let notifier = notifiers.get(ctx);
  if (!notifier) {
    notifier = new SessionEventNotifier(ctx);
    notifiers.set(ctx, notifier);
  }
  return notifier;
}

/**
 * Calls `onSeq` with the session's newest `seq` whenever entries are committed to its log, and once whenever the shared
 * listener (re)connects. Subscribe first, then read the log from where you stand, then read again on each call: no
 * entry is missed. Returns the unsubscribe function (idempotent).
 */
export function subscribeSessionEvents(ctx: AppContext, sessionId: string, onSeq: SeqListener): () => void {
  return notifierOf(ctx).subscribe(sessionId, onSeq);
}

/** Closes the process's listener connection (server shutdown). */
export async function closeSessionEventNotifier(ctx: AppContext): Promise<void> {
  await notifiers.get(ctx)?.close();
}
