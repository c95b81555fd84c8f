import { type AppRoute, type AppRouter, ContractNoBody, isAppRoute } from "@ts-rest/core";
import { ApiPromise, type NextPage, PagePromise, type WithResponse } from "./api-promise.js";
import { fillPath } from "./request-path.js";
import type { HttpRequest, RequestOptions } from "./transport.js";

/** What a resource method needs from the client: the project, and sending a request. */
export interface ResourceClient {
  projectId(options?: RequestOptions): Promise<string>;
  request(
    route: AppRoute,
    params: Record<string, string>,
    input: unknown,
    options: RequestOptions,
  ): Promise<WithResponse<unknown>>;
}

const PROJECT_SCOPE = "/v1/projects/:projectId/";

/** `:name` segments the caller passes positionally (project-scoped routes get `projectId` from the client). */
export function positionalParams(path: string): string[] {
  const rest = path.startsWith(PROJECT_SCOPE) ? path.slice(PROJECT_SCOPE.length) : path;
  return rest
    .split("/")
    .filter((s) => s.startsWith(":"))
    .map((s) => s.slice(1));
}

/** A mutation with a body schema (not `c.noBody()`): its input is the body; other routes' input is the query. */
function takesBody(route: AppRoute): boolean {
  return route.method !== "GET" && "body" in route && route.body != null && route.body !== ContractNoBody;
}

/** The HTTP request of a call: the path filled, the body or the query (as the route takes), a file read as bytes. */
export function routeRequest(
  route: AppRoute,
  params: Record<string, unknown> | undefined,
  input: { body?: unknown; query?: unknown },
): HttpRequest {
  const path = fillPath(route.path, params);
  const binary = returnsFile(route);
  return takesBody(route)
    ? { method: route.method, path, body: input.body, binary }
    : { method: route.method, path, query: input.query as Record<string, unknown> | undefined, binary };
}

/** The route answers a file (`application/octet-stream`), returned as bytes. */
function returnsFile(route: AppRoute): boolean {
  const ok = route.responses[200] as { contentType?: string } | undefined;
  return ok?.contentType === "application/octet-stream";
}

export function takesInput(route: AppRoute): boolean {
  return takesBody(route) || route.query != null;
}

type Pagination = "cursor" | "seq" | null;

/** Lists are recognised by their success schema: `nextCursor` (cursor lists) or `nextAfterSeq` (the session log). */
export function paginationOf(route: AppRoute): Pagination {
  const schema = (route.responses as Record<number, unknown>)[200] as { shape?: Record<string, unknown> } | undefined;
  const shape = schema?.shape;
  if (!shape || !("data" in shape)) return null;
  if ("nextCursor" in shape) return "cursor";
  if ("nextAfterSeq" in shape) return "seq";
  return null;
}

interface ListPage {
  data: unknown[];
  hasMore: boolean;
  nextCursor?: string | null;
  nextAfterSeq?: number;
}

function nextInput(kind: Exclude<Pagination, null>, input: unknown, page: ListPage): Record<string, unknown> | null {
  const base = (input ?? {}) as Record<string, unknown>;
  if (!page.hasMore) return null;
  if (kind === "cursor") return page.nextCursor ? { ...base, cursor: page.nextCursor } : null;
  return typeof page.nextAfterSeq === "number" ? { ...base, afterSeq: page.nextAfterSeq } : null;
}

/** The method of one route: `(…ids, input?, options?)`. */
export function routeMethod(client: ResourceClient, route: AppRoute) {
  const names = positionalParams(route.path);
  const hasInput = takesInput(route);
  const pagination = paginationOf(route);
  const scoped = route.path.startsWith(PROJECT_SCOPE);
  return (...args: unknown[]) => {
    const ids = args.slice(0, names.length);
    if (ids.length < names.length || ids.some((id) => id === undefined || id === null || id === "")) {
      throw new TypeError(`${route.method} ${route.path} needs ${names.join(", ")}`);
    }
    const input = hasInput ? args[names.length] : undefined;
    const options = ((hasInput ? args[names.length + 1] : args[names.length]) ?? {}) as RequestOptions;
    const call = async (callInput: unknown) => {
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        params[name] = String(ids[i]);
      });
      if (scoped) params.projectId = await client.projectId(options);
      return client.request(route, params, callInput, options);
    };
    if (!pagination) return new ApiPromise(call(input));
    const next: NextPage<ListPage> = (page) => {
      const following = nextInput(pagination, input, page);
      return following ? (call(following) as Promise<WithResponse<ListPage>>) : null;
    };
    return new PagePromise(call(input) as Promise<WithResponse<ListPage>>, next);
  };
}

/** Methods for every operation of a router (nested routers become nested objects). */
export function buildResource(client: ResourceClient, router: AppRouter, skip: ReadonlySet<string> = new Set()) {
  const out: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(router)) {
    if (skip.has(key)) continue;
    out[key] = isAppRoute(node) ? routeMethod(client, node) : buildResource(client, node as AppRouter);
  }
  return out;
}
