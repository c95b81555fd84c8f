/**
 * Exponential backoff: `baseMs` after the first failure, doubling up to `maxMs`, with up to `jitter` (a fraction) of
 * random spread so that jobs failing together do not retry together.
 */
export function exponentialBackoff(options: { baseMs: number; maxMs: number; jitter?: number }) {
  const jitter = options.jitter ?? 0;
  return (attempts: number): number => {
    const delay = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempts - 1));
    return Math.round(delay * (1 - jitter * Math.random()));
  };
}

/**
 * For kinds whose own state says what is left to do (a schedule, a queue of deliveries): a run that throws is an
 * infrastructure failure (the database unreachable), retried with backoff from 1 s up to a minute, never given up.
 */
export const RETRY_FOREVER = {
  maxAttempts: Number.MAX_SAFE_INTEGER,
  backoffMs: exponentialBackoff({ baseMs: 1_000, maxMs: 60_000, jitter: 0.2 }),
} as const;
