import { integerSetting } from "../lib/env.js";

/** The default retry schedule after a failed attempt (Svix's): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — about a day. */
const DEFAULT_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface DeliverySettings {
  /** Delay before attempt n + 1 after n failed ones (`delaysMs[n - 1]`); attempts = delays + 1. */
  delaysMs: number[];
  timeoutMs: number;
  /** Failed attempts in a row (any delivery) after which the endpoint is disabled. */
  disableAfterFailures: number;
  concurrency: number;
}

/**
 * `WEBHOOK_RETRY_DELAYS_MS` (comma-separated milliseconds), `WEBHOOK_TIMEOUT_MS` (default 15000),
 * `WEBHOOK_DISABLE_AFTER_FAILURES` (default 24, three deliveries' worth), `WEBHOOK_CONCURRENCY` (default 16).
 */
export function readDeliverySettings(env: Record<string, string | undefined>): DeliverySettings {
  const raw = env.WEBHOOK_RETRY_DELAYS_MS?.trim();
  const delaysMs = raw ? raw.split(",").map((part) => Number(part.trim())) : DEFAULT_DELAYS_MS;
  if (delaysMs.length > 20 || delaysMs.some((ms) => !Number.isInteger(ms) || ms < 0 || ms > 7 * 86_400_000)) {
    throw new Error(`WEBHOOK_RETRY_DELAYS_MS must list at most 20 delays in milliseconds (got ${raw})`);
  }
  return {
    delaysMs,
    timeoutMs: integerSetting(env, "WEBHOOK_TIMEOUT_MS", 15_000, 100, 120_000),
    disableAfterFailures: integerSetting(env, "WEBHOOK_DISABLE_AFTER_FAILURES", 24, 1, 10_000),
    concurrency: integerSetting(env, "WEBHOOK_CONCURRENCY", 16, 1, 256),
  };
}

/** When attempt `failed + 1` is due: the schedule's delay with ±10 % jitter. */
export function nextAttemptAt(settings: DeliverySettings, failed: number, now = Date.now()): Date | null {
  const delay = settings.delaysMs[failed - 1];
  if (delay === undefined) return null;
  return new Date(now + Math.round(delay * (0.9 + Math.random() * 0.2)));
}
