/** Shared pieces of the tools' outbound HTTP calls (web_fetch, serverless tools). */
import { TextDecoder } from "node:util";

export const USER_AGENT = "AgentPlatform/0.1 (+https://github.com/agent-platform)";

export interface CallSignal {
  signal: AbortSignal;
  /** Why the call was aborted, once it has been: the turn was interrupted, or the time ran out. */
  abortReason(): string | null;
}

/** The turn's signal combined with a timeout. */
export function callSignal(turn: AbortSignal, timeoutMs: number, what: string): CallSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([turn, timeout]);
  return {
    signal,
    abortReason() {
      if (turn.aborted) return `${what} was interrupted`;
      if (timeout.aborted) return `${what} timed out after ${Math.round(timeoutMs / 1000)} s`;
      return null;
    },
  };
}

/** A readable reason for a failed fetch (`fetch failed` hides the useful part in `cause`). */
export function describeFetchError(error: unknown): string {
  const err = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = err?.cause;
  if (cause?.message)
    return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
  return err?.message ?? String(error);
}

export interface BoundedBody {
  bytes: Uint8Array;
  /** The body was longer than the bound and was cut. */
  truncated: boolean;
}

/** Reads at most `maxBytes` of a response body, then cancels the rest. */
export async function readBounded(response: Response, maxBytes: number): Promise<BoundedBody> {
  if (!response.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      if (value.byteLength > room) {
        chunks.push(value.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, truncated };
}

/** Decodes with the charset the content type names (UTF-8 when none or unknown). */
export function decodeText(bytes: Uint8Array, contentType: string | null): string {
  const label = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? "")?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label ?? "utf-8");
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes);
}

const TEXTUAL =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|x-ndjson|yaml|x-yaml|toml|graphql|sql|csv)\b)|[+/](json|xml|yaml)\b/i;

/** Whether a body of this type (or, without a type, these bytes) is text worth showing to a model. */
export function isTextual(contentType: string | null, bytes: Uint8Array): boolean {
  if (contentType) return TEXTUAL.test(contentType.split(";")[0]!.trim());
  return !bytes.subarray(0, 1024).includes(0);
}
