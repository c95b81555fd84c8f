const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const MAX_RETRY_AFTER_MS = 60_000;
const MAX_BACKOFF_MS = 8_000;

/**
 * Worth another attempt (of a request that is safe to repeat): timeouts, rate limits, server errors, and a 409 whose
 * first request with the same idempotency key is still running (`idempotency.in_progress`: the retry gets its answer).
 */
export function isRetryableStatus(status: number, code?: string): boolean {
  return RETRYABLE_STATUS.has(status) || (status === 409 && code === "idempotency.in_progress");
}

/** `Retry-After` in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter (half fixed, half random), or the server's `Retry-After` when it sent one. */
export function backoffDelay(attempt: number, baseDelayMs: number, retryAfter: string | null = null): number {
  const told = retryAfterMs(retryAfter);
  if (told !== undefined) return Math.min(told, MAX_RETRY_AFTER_MS);
  const exp = Math.min(baseDelayMs * 2 ** attempt, MAX_BACKOFF_MS);
  return exp / 2 + Math.random() * (exp / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
