export interface RetryPolicy {
  /** Total attempts including the first one. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Fraction of the delay randomised either way (0.2 → ±20%). */
  jitter: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  attempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 5_000,
  jitter: 0.2,
});

export function resolveRetryPolicy(overrides: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...overrides };
  return { ...policy, attempts: Math.max(1, Math.floor(policy.attempts)) };
}

/**
 * Delay before attempt `failedAttempt + 1`: exponential with jitter, raised to the provider's
 * Retry-After when it asks for longer, and never above `maxDelayMs`.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  failedAttempt: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failedAttempt - 1));
  const jittered = exponential * (1 + policy.jitter * (2 * random() - 1));
  const wanted = retryAfterMs !== undefined ? Math.max(jittered, retryAfterMs) : jittered;
  return Math.max(0, Math.min(policy.maxDelayMs, Math.round(wanted)));
}
