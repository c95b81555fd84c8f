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
