import { onePerOwner } from "./per-owner.js";
import type { PgListener } from "./pg-listener.js";

/** Keys remembered at most; past it the cache starts over (a read per key refills it). */
const MAX_KEYS = 50_000;

/**
 * A per-process cache of values read from PostgreSQL, kept true by NOTIFY: whoever changes what a key's value is read
 * from notifies `channel` with the key (a trigger, or a `pg_notify` in the changing transaction, delivered at commit),
 * and every process drops that entry. A change made in this process can also be dropped at once (`forget`), so its
 * own next request sees it. The cache is only trusted while the shared listener is connected and listening on the
 * channel (notifications sent while it is down are lost; it is cleared when it reconnects), and a read that started
 * before a change was announced is returned but not kept.
 */
export class NotifiedCache<V> {
  private readonly known = new Map<string, V>();
  private listening = false;
  private armed = false;
  /** Moves with every announced change. */
  private generation = 0;

  constructor(
    private readonly listener: PgListener,
    private readonly channel: string,
  ) {}

  async get(key: string, read: () => Promise<V>): Promise<V> {
    this.listen();
    const trusted = this.armed && this.listener.connected;
    if (trusted && this.known.has(key)) return this.known.get(key) as V;
    const generation = this.generation;
    const value = await read();
    if (trusted && generation === this.generation) {
      if (this.known.size >= MAX_KEYS) this.known.clear();
      this.known.set(key, value);
    }
    return value;
  }

  forget(key: string): void {
    this.generation++;
    this.known.delete(key);
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.listener.subscribe(this.channel, {
      onNotification: (key) => this.forget(key),
      onConnected: () => {
        this.generation++;
        this.known.clear();
        this.armed = true;
      },
    });
  }
}

/** One cache per owner (an application context) and channel. */
export function cachePerOwner<V>(channel: string): (owner: { listener: PgListener }) => NotifiedCache<V> {
  return onePerOwner((owner: { listener: PgListener }) => new NotifiedCache<V>(owner.listener, channel));
}
