import { WebhookVerificationError as LibraryVerificationError, Webhook } from "standardwebhooks";
import { AgentPlatformError } from "./errors.js";
import type { WebhookEvent } from "./generated/contract-types.js";

/**
 * A delivery that is not authentic or too old. The SDK's own class (not the library's), so that its declarations need
 * no Node.js types.
 */
export class WebhookVerificationError extends AgentPlatformError {
  override name = "WebhookVerificationError";
}

/**
 * Verifies a webhook delivery and returns its event: the signature (`webhook-signature`, any of its `v1,` entries —
 * during a secret rotation deliveries carry two) must match `secret` over `webhook-id`, `webhook-timestamp` and the
 * raw body, and the timestamp must be within 5 minutes (replays are refused). Pass the body exactly as received
 * (a string or the raw bytes), never re-serialised JSON. Throws `WebhookVerificationError` otherwise. Runs in Node.js,
 * browsers and edge runtimes (no Node.js APIs).
 *
 * ```ts
 * const event = verifyWebhook(rawBody, request.headers, process.env.AGENT_PLATFORM_WEBHOOK_SECRET!);
 * if (event.type === "session.requires_action") notify(event.data.sessionId, event.data.pendingActions);
 * ```
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: Record<string, string | string[] | undefined> | Headers,
  secret: string,
): WebhookEvent {
  const plain: Record<string, string> = {};
  const get = (name: string) => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const value = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(" ") : value;
  };
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
    const value = get(name);
    if (value === undefined) throw new WebhookVerificationError(`Missing ${name} header`);
    plain[name] = value;
  }
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  try {
    // The verified JSON as sent: fields and event types added later are passed through, not refused or stripped.
    return new Webhook(secret).verify(text, plain) as WebhookEvent;
  } catch (error) {
    if (error instanceof LibraryVerificationError) throw new WebhookVerificationError(error.message, { cause: error });
    throw error;
  }
}
