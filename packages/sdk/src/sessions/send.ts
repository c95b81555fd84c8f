import type { UserEvent } from "../generated/api.js";
import { newIdempotencyKey } from "../idempotency.js";

/** An event a client sends (`user.message`, `user.interrupt`, `user.tool_confirmation`, `user.custom_tool_result`). */
export type SendableEvent = UserEvent;

/** Gives every event without an `idempotencyKey` a fresh one, once: retries of the batch then send the same keys. */
export function withIdempotencyKeys<E extends { idempotencyKey?: string }>(events: E[]): E[] {
  return events.map((event) => (event.idempotencyKey ? event : { ...event, idempotencyKey: newIdempotencyKey() }));
}
