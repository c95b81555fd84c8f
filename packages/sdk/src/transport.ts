import { ApiError, apiErrorOf, ConnectionError, TimeoutError } from "./errors.js";
import { newIdempotencyKey } from "./idempotency.js";
import { encodeQuery } from "./request-path.js";
import { backoffDelay, isRetryableStatus, sleep } from "./retry.js";

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

/** Options of one call; each overrides the client's. */
export interface RequestOptions {
  /** Milliseconds one attempt may take (response included) before it is abandoned; retried when retries are left. */
  timeout?: number;
  /** Extra attempts after the first, for failures worth retrying (see the README). */
  maxRetries?: number;
  signal?: AbortSignal;
  /** `Idempotency-Key` of this mutation; by default one is generated per call and reused by its retries. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  /** The project of project-scoped routes, instead of the client's. */
  projectId?: string;
}

export interface TransportConfig {
  baseUrl: string;
  apiKey: string;
  timeout: number;
  maxRetries: number;
  fetch: typeof fetch;
  headers: Record<string, string>;
  /** First backoff in ms, doubled per attempt. */
  baseDelayMs: number;
  /** Generate an `Idempotency-Key` for mutations that have none. */
  autoIdempotencyKeys: boolean;
}

export interface HttpRequest {
  method: string;
  /** Path with its parameters filled, starting with `/v1`. */
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The success body is a file: read it as bytes (`Uint8Array`) whatever its media type. */
  binary?: boolean;
}

/** A response and its decoded body: JSON, bytes for a file, text for other media types, undefined for 204. */
export interface HttpResult {
  response: Response;
  body: unknown;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// Safe to repeat without a key: a retried DELETE may answer 404, but never does twice what was asked once.
const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

export function urlOf(config: Pick<TransportConfig, "baseUrl">, path: string, query?: Record<string, unknown>): string {
  return config.baseUrl.replace(/\/+$/, "") + path + encodeQuery(query);
}

/** One call with timeouts, retries (backoff, `Retry-After`) and the same idempotency key on every attempt. */
export async function send(
  config: TransportConfig,
  req: HttpRequest,
  options: RequestOptions = {},
): Promise<HttpResult> {
  const url = urlOf(config, req.path, req.query);
  const mutating = MUTATING.has(req.method);
  const idempotencyKey =
    options.idempotencyKey ?? (mutating && config.autoIdempotencyKeys ? newIdempotencyKey() : undefined);
  const headers: Record<string, string> = {
    Accept: "application/json",
    ...config.headers,
    ...options.headers,
    Authorization: `Bearer ${config.apiKey}`,
  };
  if (idempotencyKey && mutating) headers["Idempotency-Key"] = idempotencyKey;
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.body !== undefined;
  if (hasBody) headers["Content-Type"] = "application/json";
  const canRetry = IDEMPOTENT.has(req.method) || idempotencyKey !== undefined;
  const retries = options.maxRetries ?? config.maxRetries;
  const timeoutMs = options.timeout ?? config.timeout;

  for (let attempt = 0; ; attempt++) {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let failure: Error;
    let retryAfter: string | null = null;
    try {
      const response = await config.fetch(url, {
        method: req.method,
        headers,
        body: hasBody ? JSON.stringify(req.body) : undefined,
        signal,
      });
      if (response.ok) return { response, body: await readBody(response, req.binary === true) };
      const error = await apiErrorOf(response);
      if (!canRetry || !isRetryableStatus(response.status, error.code)) throw error;
      failure = error;
      retryAfter = response.headers.get("retry-after");
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof ApiError) throw error;
      failure = timeout.aborted
        ? new TimeoutError(`${req.method} ${url} timed out after ${timeoutMs} ms`, { cause: error })
        : new ConnectionError(`${req.method} ${url} failed: ${(error as Error).message}`, { cause: error });
      if (!canRetry) throw failure;
    }
    if (attempt >= retries) throw failure;
    await sleep(backoffDelay(attempt, config.baseDelayMs, retryAfter), options.signal);
  }
}

async function readBody(response: Response, binary: boolean): Promise<unknown> {
  if (response.status === 204) return undefined;
  if (binary) return new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json")) return response.json();
  return response.text();
}
