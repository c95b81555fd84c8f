/** A fresh key for `Idempotency-Key` or an event's `idempotencyKey`; reuse the same key when retrying. */
export function newIdempotencyKey(): string {
  // Web Crypto: the same in Node.js, browsers and edge runtimes.
  return globalThis.crypto.randomUUID();
}
