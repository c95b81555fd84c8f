export interface RetryOptions {
  /** Extra attempts after the first. Default 2. */
  retries?: number;
  /** First backoff in ms, doubled each attempt, with jitter. Default 250. */
  baseDelayMs?: number;
}

const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/**
 * Worth another attempt (of a request that is safe to repeat): timeouts, rate limits, server errors, and a 409 whose
 * first request with the same idempotency key is still running (`idempotency.in_progress`: the retry gets its answer).
 */
export function isRetryableStatus(status: number, code?: string): boolean {
  return RETRYABLE_STATUS.has(status) || (status === 409 && code === "idempotency.in_progress");
}

export function backoffDelay(attempt: number, baseDelayMs: number, retryAfter: string | null): number {
  const seconds = retryAfter ? Number(retryAfter) : Number.NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 30_000);
  const exp = baseDelayMs * 2 ** attempt;
  return exp / 2 + Math.random() * (exp / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
