/** Worker tuning, from the environment (docs/sessions.md, "How a turn runs"). */
export interface WorkerSettings {
  /** Sessions one worker process runs at once (`WORKER_CONCURRENCY`, default 8). */
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

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number) {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max} (got ${raw})`);
  }
  return value;
}

export function readWorkerSettings(env: Record<string, string | undefined>): WorkerSettings {
  return {
    concurrency: integer(env, "WORKER_CONCURRENCY", 8, 1, 1024),
    leaseMs: integer(env, "WORKER_LEASE_MS", 30_000, 1_000, 3_600_000),
    maxModelCalls: integer(env, "WORKER_MAX_MODEL_CALLS", 12, 1, 1_000),
    maxAttempts: integer(env, "WORKER_MAX_ATTEMPTS", 5, 1, 100),
    mcpConnectTimeoutMs: integer(env, "MCP_CONNECT_TIMEOUT_MS", 10_000, 100, 600_000),
    mcpCallTimeoutMs: integer(env, "MCP_CALL_TIMEOUT_MS", 60_000, 100, 3_600_000),
    logCacheEvents: integer(env, "WORKER_LOG_CACHE_EVENTS", 50_000, 0, 100_000_000),
  };
}
