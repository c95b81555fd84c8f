import { integerSetting } from "../../lib/env.js";

/** Default of `WORKER_CONCURRENCY`: sized for turns that mostly wait on a model (see docs/operating.md). */
export const DEFAULT_WORKER_CONCURRENCY = 10_000;

/** Tuning of session turns, from the environment (docs/sessions.md, "How a turn runs"). */
export interface TurnSettings {
  /**
   * Sessions one worker process runs at once (`WORKER_CONCURRENCY`, default 10,000: a turn mostly waits on its model, so
   * the real bound is the load gauge's back-pressure: event-loop delay, heap, database pool waiters).
   */
  concurrency: number;
  /** Lease on a claimed session, renewed every third of it while the turn runs (`WORKER_LEASE_MS`, default 30 s). */
  leaseMs: number;
  /** Default cap on model calls per turn (`WORKER_MAX_MODEL_CALLS`, default 12). */
  maxModelCalls: number;
  /** Claims without a pass ending normally before the session is stopped with an error (`WORKER_MAX_ATTEMPTS`, 5). */
  maxAttempts: number;
  /** MCP connect and per-call timeouts (`MCP_CONNECT_TIMEOUT_MS` 10 s, `MCP_CALL_TIMEOUT_MS` 60 s). */
  mcpConnectTimeoutMs: number;
  mcpCallTimeoutMs: number;
  /** Log entries kept in memory across passes (`WORKER_LOG_CACHE_EVENTS`, default 50,000; 0 turns it off). */
  logCacheEvents: number;
}

export function readTurnSettings(env: Record<string, string | undefined>): TurnSettings {
  return {
    concurrency: integerSetting(env, "WORKER_CONCURRENCY", DEFAULT_WORKER_CONCURRENCY, 1, 1_000_000),
    leaseMs: integerSetting(env, "WORKER_LEASE_MS", 30_000, 1_000, 3_600_000),
    maxModelCalls: integerSetting(env, "WORKER_MAX_MODEL_CALLS", 12, 1, 1_000),
    maxAttempts: integerSetting(env, "WORKER_MAX_ATTEMPTS", 5, 1, 100),
    mcpConnectTimeoutMs: integerSetting(env, "MCP_CONNECT_TIMEOUT_MS", 10_000, 100, 600_000),
    mcpCallTimeoutMs: integerSetting(env, "MCP_CALL_TIMEOUT_MS", 60_000, 100, 3_600_000),
    logCacheEvents: integerSetting(env, "WORKER_LOG_CACHE_EVENTS", 50_000, 0, 100_000_000),
  };
}
