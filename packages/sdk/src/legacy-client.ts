import { type Contract, contract } from "@agent-platform/contract";
import {
  type AppRoute,
  type AppRouter,
  type ClientInferResponseBody,
  ContractNoBody,
  isAppRoute,
  type PartialClientInferRequest,
} from "@ts-rest/core";
import type { ZodTypeAny } from "zod";
import { type ClientOptions, legacyTransport } from "./client-options.js";
import { type Route, routeRequest } from "./resources.js";
import { type RequestOptions, send, type TransportConfig } from "./transport.js";

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

/** A contract route as the transport's route: a mutation with a body schema (not `c.noBody()`) sends its body. */
function asRoute(route: AppRoute): Route {
  const takesBody = route.method !== "GET" && "body" in route && route.body != null && route.body !== ContractNoBody;
  const ok = route.responses[200] as { contentType?: string } | undefined;
  return {
    operation: route.path,
    method: route.method,
    path: route.path,
    input: takesBody ? "body" : route.query != null ? "query" : null,
    pagination: null,
    file: ok?.contentType === "application/octet-stream" || ok?.contentType === "*/*",
  };
}

function buildCall(route: AppRoute, config: TransportConfig, validate: boolean) {
  const target = asRoute(route);
  return async ({ params, query, body, ...options }: CallArgs = {}) => {
    const input = target.input === "body" ? body : query;
    const { response, body: data } = await send(config, routeRequest(target, params, input), options);
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

export type { ClientOptions };
