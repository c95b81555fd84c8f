import { type Contract, contract } from "@agent-platform/contract";
import {
  type AppRoute,
  type AppRouter,
  type ClientInferResponseBody,
  isAppRoute,
  type PartialClientInferRequest,
} from "@ts-rest/core";
import type { ZodTypeAny } from "zod";
import { routeRequest } from "./resources.js";
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type RequestOptions,
  send,
  type TransportConfig,
} from "./transport.js";

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

type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessBody<R extends AppRoute> = ClientInferResponseBody<R, Extract<keyof R["responses"], SuccessStatus>>;
type RequestArgs<R extends AppRoute> = Omit<
  PartialClientInferRequest<R>,
  "extraHeaders" | "fetchOptions" | "overrideClientOptions" | "cache" | "headers"
> &
  Omit<RequestOptions, "projectId">;
type AllOptional<T> = Partial<T> extends T ? true : false;

export type RouteFunction<R extends AppRoute> =
  AllOptional<RequestArgs<R>> extends true
    ? (args?: RequestArgs<R>) => Promise<SuccessBody<R>>
    : (args: RequestArgs<R>) => Promise<SuccessBody<R>>;

export type TypedClient<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? RouteFunction<T[K]> : T[K] extends AppRouter ? TypedClient<T[K]> : never;
};

export type AgentPlatformClient = TypedClient<Contract>;

interface CallArgs extends RequestOptions {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

function buildCall(route: AppRoute, config: TransportConfig, validate: boolean) {
  return async ({ params, query, body, ...options }: CallArgs = {}) => {
    const { response, body: data } = await send(config, routeRequest(route, params, { body, query }), options);
    const schema = route.responses[response.status] as ZodTypeAny | undefined;
    return validate && typeof schema?.parse === "function" ? schema.parse(data) : data;
  };
}

function buildClient<T extends AppRouter>(router: T, config: TransportConfig, validate: boolean): TypedClient<T> {
  const out: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(router)) {
    out[key] = isAppRoute(node) ? buildCall(node, config, validate) : buildClient(node as AppRouter, config, validate);
  }
  return out as TypedClient<T>;
}

/**
 * @deprecated Use `new AgentPlatform()`. A typed client of every /v1 route:
 * `client.<area>.<operation>({ params, query, body })` resolves to the success body or throws `ApiError`.
 */
export function createClient(options: ClientOptions): AgentPlatformClient {
  return buildClient(contract, legacyTransport(options), options.validateResponses !== false);
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
