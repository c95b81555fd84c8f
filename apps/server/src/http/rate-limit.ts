import { createRequire } from "node:module";
import type { RequestHandler } from "express";
import type pg from "pg";
import type { Logger } from "pino";
import type * as RateLimiterFlexible from "rate-limiter-flexible";
import { AppError } from "./app-error.js";

/** Loaded only when a limit is set (a CommonJS package: synchronously): most processes never need it (~7 MiB). */
const loadRateLimiter = () => createRequire(import.meta.url)("rate-limiter-flexible") as typeof RateLimiterFlexible;

export const RATE_LIMIT_VARIABLE = "RATE_LIMIT_PER_MINUTE";
const WINDOW_SECONDS = 60;

/** Parses `RATE_LIMIT_PER_MINUTE`: unset or empty is off; otherwise a positive integer. */
export function parseRateLimit(text: string | undefined): number | null {
  if (text === undefined || text.trim() === "") return null;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error(
      `${RATE_LIMIT_VARIABLE} must be a positive integer (requests per minute per API key), got "${text}"`,
    );
  }
  return limit;
}

/**
 * Requests per minute per API key, counted in PostgreSQL (`rate_limits`, one row per key) so the limit holds across
 * replicas: `rate-limiter-flexible`'s Postgres store, a fixed window per key opened by its first request, one upsert
 * per request. Keys never share a row, so unrelated keys never wait on each other. Once a key is over the limit this
 * process refuses it from memory until its window ends (no more writes). `null` when the variable is unset: no
 * middleware, no cost.
 *
 * Every answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds until the window ends);
 * a refused one is a 429 `rate_limit.exceeded` with `Retry-After`. If the store cannot be reached the request goes on
 * (logged): the limiter never becomes the outage.
 */
export function rateLimitFor(text: string | undefined, pool: pg.Pool, logger: Logger): RequestHandler | null {
  const limit = parseRateLimit(text);
  if (limit === null) return null;
  const { RateLimiterPostgres, RateLimiterRes } = loadRateLimiter();
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: "pool",
    tableName: "rate_limits",
    tableCreated: true,
    keyPrefix: "key",
    points: limit,
    duration: WINDOW_SECONDS,
    inMemoryBlockOnConsumed: limit + 1,
    // Expired rows are overwritten by the key's next window; a periodic DELETE bounds the table.
    clearExpiredByTimeout: true,
  });

  const setHeaders = (res: Parameters<RequestHandler>[1], state: RateLimiterFlexible.RateLimiterRes) => {
    const reset = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    res.setHeader("RateLimit-Limit", String(limit));
    res.setHeader("RateLimit-Remaining", String(state.remainingPoints));
    res.setHeader("RateLimit-Reset", String(reset));
    return reset;
  };

  return (req, res, next) => {
    const keyId = req.auth?.keyId;
    if (!keyId) {
      next();
      return;
    }
    limiter.consume(keyId).then(
      (state) => {
        setHeaders(res, state);
        next();
      },
      (rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) {
          logger.warn({ err: rejection, requestId: req.requestId }, "rate limit store unavailable; request allowed");
          next();
          return;
        }
        const reset = setHeaders(res, rejection);
        res.setHeader("Retry-After", String(reset));
        next(
          new AppError(
            "rate_limit.exceeded",
            `Rate limit exceeded: at most ${limit} requests per minute per API key; retry in ${reset} s`,
          ),
        );
      },
    );
  };
}
