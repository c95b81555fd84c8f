import type { PgListener } from "../lib/pg-listener.js";
import type { AuthContext } from "./caller.js";

const CHANNEL = "api_keys_changed";
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  auth: AuthContext;
  expiresAt: number;
}

/**
 * Resolved API keys by hash, so an authenticated request costs no database round trip. A revocation invalidates the
 * entry in this process at once and in every other process through NOTIFY; the TTL bounds staleness if a notification
 * is ever missed (everything is flushed whenever the process's shared listener reconnects).
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();

  get(hash: string, now = Date.now()): AuthContext | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt < now) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.auth;
  }

  set(hash: string, auth: AuthContext, now = Date.now()): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { auth, expiresAt: now + TTL_MS });
  }

  invalidateKey(keyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.auth.keyId === keyId) this.entries.delete(hash);
  }

  /** Tells every process (this one included) that a key changed. */
  async publishChange(db: { query(sql: string, values: unknown[]): Promise<unknown> }, keyId: string): Promise<void> {
    this.invalidateKey(keyId);
    await db.query("SELECT pg_notify($1, $2)", [CHANNEL, keyId]);
  }

  /** Follows revocations through the process's shared listener (until it closes). */
  listen(listener: PgListener): void {
    listener.subscribe(CHANNEL, {
      onNotification: (keyId) => this.invalidateKey(keyId),
      onConnected: () => this.entries.clear(),
    });
  }
}
