import { type Contract, contract } from "@agent-platform/contract";
import {
  type AppRoute,
  type AppRouter,
  type ClientInferResponseBody,
  isAppRoute,
  type PartialClientInferRequest,
} from "@ts-rest/core";
import type { ZodTypeAny } from "zod";
import { apiErrorOf, ConnectionError } from "./api-error.js";
import { newIdempotencyKey } from "./idempotency.js";
import { encodeQuery, fillPath } from "./request-path.js";
import { backoffDelay, isRetryableStatus, type RetryOptions, sleep } from "./retry.js";

export interface ClientOptions {
  /** e.g. `http://127.0.0.1:3000` */
  baseUrl: string;
  apiKey: string;
  /**
   * Retries of network failures, timeouts, 408/429/500/502/503/504 and 409 `idempotency.in_progress`: GETs always,
   * mutations only with an idempotency key.
   */
  retry?: RetryOptions;
  /** Milliseconds an attempt may take (until the response headers) before it is abandoned and retried. Default 60000. */
  timeout?: number;
  /** Send a generated `Idempotency-Key` with every mutating request, so retrying them is safe. Default true. */
  autoIdempotencyKeys?: boolean;
  /** Parse success bodies with the contract's Zod schemas (the same ones the server validates with). Default true. */
  validateResponses?: boolean;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

export interface RequestOptions {
  /** `Idempotency-Key` header for this call (mutations). */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** This call's attempt timeout in ms (overrides the client's). */
  timeout?: number;
  /** This call's extra attempts (overrides the client's `retry.retries`). */
  maxRetries?: number;
  headers?: Record<string, string>;
}

type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessBody<R extends AppRoute> = ClientInferResponseBody<R, Extract<keyof R["responses"], SuccessStatus>>;
type RequestArgs<R extends AppRoute> = Omit<
  PartialClientInferRequest<R>,
  "extraHeaders" | "fetchOptions" | "overrideClientOptions" | "cache" | "headers"
> &
  RequestOptions;
type AllOptional<T> = Partial<T> extends T ? true : false;

export type RouteMethod<R extends AppRoute> =
  AllOptional<RequestArgs<R>> extends true
    ? (args?: RequestArgs<R>) => Promise<SuccessBody<R>>
    : (args: RequestArgs<R>) => Promise<SuccessBody<R>>;

export type TypedClient<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? RouteMethod<T[K]> : T[K] extends AppRouter ? TypedClient<T[K]> : never;
};

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const DEFAULT_TIMEOUT_MS = 60_000;

interface CallArgs extends RequestOptions {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

function buildCall(route: AppRoute, options: Required<Pick<ClientOptions, "baseUrl" | "apiKey">> & ClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const clientRetries = options.retry?.retries ?? 2;
  const baseDelayMs = options.retry?.baseDelayMs ?? 250;
  const base = options.baseUrl.replace(/\/+$/, "");
  return async (args: CallArgs = {}) => {
    const url = base + fillPath(route.path, args.params) + encodeQuery(args.query);
    const mutating = MUTATING.has(route.method);
    const idempotencyKey =
      args.idempotencyKey ?? (mutating && options.autoIdempotencyKeys !== false ? newIdempotencyKey() : undefined);
    const retries = args.maxRetries ?? clientRetries;
    const timeoutMs = args.timeout ?? options.timeout ?? DEFAULT_TIMEOUT_MS;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.apiKey}`,
      Accept: "application/json",
      ...options.headers,
      ...args.headers,
    };
    if (idempotencyKey && mutating) headers["Idempotency-Key"] = idempotencyKey;
    const hasBody = route.method !== "GET" && args.body !== undefined;
    if (hasBody) headers["Content-Type"] = "application/json";
    const canRetry = !mutating || idempotencyKey !== undefined;

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        response = await doFetch(url, {
          method: route.method,
          headers,
          body: hasBody ? JSON.stringify(args.body) : undefined,
          signal: args.signal ? AbortSignal.any([args.signal, timeout]) : timeout,
        });
      } catch (error) {
        if (args.signal?.aborted) throw error;
        if (canRetry && attempt < retries) {
          await sleep(backoffDelay(attempt, baseDelayMs, null), args.signal);
          continue;
        }
        const why = timeout.aborted ? `timed out after ${timeoutMs} ms` : `failed: ${(error as Error).message}`;
        throw new ConnectionError(`${route.method} ${url} ${why}`, { cause: error });
      }
      if (response.ok) {
        if (response.status === 204) return undefined;
        if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
          await response.body?.cancel();
          throw new TypeError("This route is a Server-Sent Events stream: use followSessionEvents() to follow it");
        }
        if (!response.headers.get("content-type")?.includes("json")) return await response.text();
        const body: unknown = await response.json();
        const schema = route.responses[response.status] as ZodTypeAny | undefined;
        return options.validateResponses !== false && schema && typeof schema.parse === "function"
          ? schema.parse(body)
          : body;
      }
      const error = await apiErrorOf(response);
      if (canRetry && attempt < retries && isRetryableStatus(response.status, error.code)) {
        await sleep(backoffDelay(attempt, baseDelayMs, response.headers.get("retry-after")), args.signal);
        continue;
      }
      throw error;
    }
  };
}

function buildClient<T extends AppRouter>(router: T, options: ClientOptions): TypedClient<T> {
  const out: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(router)) {
    out[key] = isAppRoute(node) ? buildCall(node, options) : buildClient(node as AppRouter, options);
  }
  return out as TypedClient<T>;
}

export type AgentPlatformClient = TypedClient<Contract>;

/**
 * A typed client of every /v1 route: `client.<area>.<operation>({ params, query, body })` resolves to the success
 * body or throws `ApiError` (code, status, requestId, details).
 */
export function createClient(options: ClientOptions): AgentPlatformClient {
  return buildClient(contract, options);
}
