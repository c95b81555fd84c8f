import { randomUUID } from "node:crypto";

/** A fresh key for `Idempotency-Key` or an event's `idempotencyKey`; reuse the same key when retrying. */
export function newIdempotencyKey(): string {
  return randomUUID();
}
