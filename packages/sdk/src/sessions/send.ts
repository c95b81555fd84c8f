import type { UserEventSchema } from "@agent-platform/contract";
import type { z } from "zod";
import { newIdempotencyKey } from "../idempotency.js";

/** An event a client sends (`user.message`, `user.interrupt`, `user.tool_confirmation`, `user.custom_tool_result`). */
export type SendableEvent = z.input<typeof UserEventSchema>;

/** Gives every event without an `idempotencyKey` a fresh one, once: retries of the batch then send the same keys. */
export function withIdempotencyKeys<E extends { idempotencyKey?: string }>(events: E[]): E[] {
  return events.map((event) => (event.idempotencyKey ? event : { ...event, idempotencyKey: newIdempotencyKey() }));
}
