import type { JsonObject } from "./json.js";

const headerRef = (name: string): JsonObject => ({ $ref: `#/components/headers/${name}` });
export const parameterRef = (name: string): JsonObject => ({ $ref: `#/components/parameters/${name}` });

/** Reusable request headers. */
export const PARAMETERS: Record<string, JsonObject> = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes a retry safe: the first request with a key stores its answer (not a 5xx) for 24 hours; the same key with " +
      "the same method, path and body replays it with `Idempotent-Replayed: true`; with another request it is a 409 " +
      "`idempotency.conflict`, and while the first is still running a 409 `idempotency.in_progress`.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
    example: "6f1c2a70-2f5e-4a53-9a57-1f0c2b1d9e11",
  },
  LastEventId: {
    name: "Last-Event-ID",
    in: "header",
    required: false,
    description:
      "Resume after this `seq`: browsers' EventSource sends the `id` of the last event it received when it " +
      "reconnects. Wins over `afterSeq` when both are sent.",
    schema: { type: "string", pattern: "^\\d{1,10}$" },
    example: "42",
  },
};

/** Reusable response headers. */
export const HEADERS: Record<string, JsonObject> = {
  XRequestId: {
    description: "`req_` id of this request, also in `error.requestId`; quote it when reporting a problem",
    schema: { type: "string" },
    example: "req_01JD3ZK8Q4W5X6Y7Z8A9B0C1D2",
  },
  IdempotentReplayed: {
    description: "`true` when this answer is the stored answer of an earlier request with the same `Idempotency-Key`",
    schema: { type: "string", enum: ["true"] },
  },
  RateLimitLimit: {
    description: "Requests allowed per minute per API key (present on every answer when the operator sets a limit)",
    schema: { type: "integer", minimum: 1 },
  },
  RateLimitRemaining: {
    description: "Requests left in the current window",
    schema: { type: "integer", minimum: 0 },
  },
  RateLimitReset: {
    description: "Seconds until the window ends",
    schema: { type: "integer", minimum: 1 },
  },
  RetryAfter: {
    description: "Seconds to wait before retrying",
    schema: { type: "integer", minimum: 1 },
    example: 2,
  },
};

/** Headers of any answer; a success of a mutating operation may be a replay. */
export function responseHeaders(status: number, mutating: boolean): JsonObject {
  return {
    "X-Request-Id": headerRef("XRequestId"),
    ...(status === 429 || status === 503 ? { "Retry-After": headerRef("RetryAfter") } : {}),
    ...(status === 429
      ? {
          "RateLimit-Limit": headerRef("RateLimitLimit"),
          "RateLimit-Remaining": headerRef("RateLimitRemaining"),
          "RateLimit-Reset": headerRef("RateLimitReset"),
        }
      : {}),
    ...(mutating && status < 300 ? { "Idempotent-Replayed": headerRef("IdempotentReplayed") } : {}),
  };
}
