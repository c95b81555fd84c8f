import pg from "pg";

/** What a subscriber hears: each notification's payload, and a call after every (re)connection. */
export interface ChannelSubscriber {
  onNotification(payload: string): void;
  /**
   * The connection was (re)established and the channel is listened to. Notifications sent while it was down are lost:
   * a subscriber re-reads whatever state it follows here. Also called once right after `subscribe` when the connection
   * is already up, so "subscribe, then read" never misses anything.
   */
  onConnected?(): void;
}

interface ListenerLogger {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Names the shared connection in `pg_stat_activity`. */
export const LISTENER_APPLICATION_NAME = "agent-platform listener";

const RECONNECT_MIN_MS = 100;
/**
 * Kept short: while the listener is down, work enqueued by other processes is found only when it reconnects (and its
 * subscribers resynchronise), so a database back from a restart must be noticed within about a second. A connection
 * attempt a second is nothing to PostgreSQL.
 */
const RECONNECT_MAX_MS = 1_000;
/** TCP keepalive: a connection silently cut (a failover, a network partition) is noticed instead of waiting forever. */
const KEEPALIVE_DELAY_MS = 10_000;

/**
 * The process's one `LISTEN` connection, shared by every component that waits on PostgreSQL notifications (API-key
 * revocations, session-event followers, the job runner). It is opened by `start()` and kept for the life of the
 * process: nothing opens a connection per follower or per turn. Channels are listened to on first subscription and
 * stay listened to; notifications fan out to the channel's subscribers. A lost connection is re-established with
 * backoff, and every subscriber is told (`onConnected`) so it can catch up.
 */
export class PgListener {
  private readonly channels = new Map<string, Set<ChannelSubscriber>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** When the connection was lost (undefined while connected or before the first connection). */
  private lostAt: number | undefined;
  private reconnectCount = 0;
  /** The newest `LISTEN` sent on the connection: each waits for the one before (one query at a time per client). */
  private listens: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly logger: ListenerLogger,
    /** Called after each reconnection (not the first connection), with how long the listener was down. */
    private readonly onReconnected: (downMs: number) => void = () => {},
  ) {}

  /** Reconnections since start (each one made every subscriber resynchronise). */
  get reconnects(): number {
    return this.reconnectCount;
  }

  /** Connects (resolves once listening, or rejects when the first attempt fails; retries continue either way). */
  start(): Promise<void> {
    return this.connect();
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  subscribe(channel: string, subscriber: ChannelSubscriber): () => void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
    if (this.closed) return () => {};
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
      const client = this.client;
      if (client) {
        const listened = this.listens.then(() => client.query(`LISTEN ${channel}`));
        this.listens = listened.catch(() => {});
        listened.then(
          () => this.tell(set!, (s) => s.onConnected?.()),
          (error) => this.lost(client, error),
        );
      }
    } else if (this.client) {
      queueMicrotask(() => subscriber.onConnected?.());
    }
    set.add(subscriber);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.channels.get(channel)?.delete(subscriber);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    this.channels.clear();
    await client?.end().catch(() => {});
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
      ...this.connection,
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    client.on("notification", (message) => {
      const set = this.channels.get(message.channel);
      if (set && message.payload !== undefined) this.tell(set, (s) => s.onNotification(message.payload!));
    });
    try {
      await client.connect();
      const names = [...this.channels.keys()];
      if (names.length > 0) await client.query(names.map((c) => `LISTEN ${c}`).join("; "));
    } catch (error) {
      client.removeAllListeners("end");
      await client.end().catch(() => {});
      this.scheduleReconnect(error);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.retryMs = RECONNECT_MIN_MS;
    if (this.lostAt !== undefined) {
      const downMs = Date.now() - this.lostAt;
      this.lostAt = undefined;
      this.reconnectCount++;
      this.logger.info(
        { downMs, channels: this.channels.size },
        "notification listener reconnected; subscribers resynchronise",
      );
      try {
        this.onReconnected(downMs);
      } catch (error) {
        this.logger.error({ err: error }, "notification listener reconnect hook failed");
      }
    }
    for (const set of this.channels.values()) this.tell(set, (s) => s.onConnected?.());
  }

  private tell(set: Set<ChannelSubscriber>, call: (s: ChannelSubscriber) => void): void {
    for (const subscriber of [...set]) {
      try {
        call(subscriber);
      } catch (error) {
        this.logger.error({ err: error }, "notification subscriber failed");
      }
    }
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => {});
    this.scheduleReconnect(error);
  }

  private scheduleReconnect(error: unknown): void {
    if (this.closed || this.retryTimer) return;
    // One warning per outage; each further attempt is a debug line.
    if (this.lostAt === undefined) {
      this.logger.warn({ err: error, retryInMs: this.retryMs }, "notification listener disconnected; reconnecting");
    } else {
      this.logger.debug({ err: error, retryInMs: this.retryMs }, "notification listener still disconnected");
    }
    this.lostAt ??= Date.now();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connect().catch(() => {});
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }
}
