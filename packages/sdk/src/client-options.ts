import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type TransportConfig } from "./transport.js";

/** Options of `createClient` (the `{ params, query, body }` client kept for existing code; prefer `AgentPlatform`). */
export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  retry?: { retries?: number; baseDelayMs?: number };
  timeout?: number;
  autoIdempotencyKeys?: boolean;
  /** Parse success bodies with the contract's Zod schemas. Default true. */
  validateResponses?: boolean;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

/** The transport settings of `ClientOptions`. */
export function legacyTransport(options: Omit<ClientOptions, "validateResponses">): TransportConfig {
  return {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.retry?.retries ?? DEFAULT_MAX_RETRIES,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    headers: options.headers ?? {},
    baseDelayMs: options.retry?.baseDelayMs ?? 250,
    autoIdempotencyKeys: options.autoIdempotencyKeys !== false,
  };
}
