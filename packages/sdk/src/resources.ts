import { ApiPromise, type NextPage, PagePromise, type WithResponse } from "./api-promise.js";
import type { RouteSpec } from "./generated/routes.js";
import { fillPath } from "./request-path.js";
import type { HttpRequest, RequestOptions } from "./transport.js";

/** One operation of the generated route table, with its name (`agents.create`) for messages and validators. */
export interface Route {
  operation: string;
  method: string;
  path: string;
  /** The input is the JSON body (mutations with a body schema), else the query (when the route has one). */
  input: "body" | "query" | null;
  /** Lists: `nextCursor` (cursor lists) or `nextAfterSeq` (the session log). */
  pagination: "cursor" | "seq" | null;
  /** The route answers a file, read as bytes whatever its media type. */
  file: boolean;
}

export function routeOf(operation: string, [method, path, flags]: RouteSpec): Route {
  const has = (flag: string) => flags.split(" ").includes(flag);
  return {
    operation,
    method,
    path,
    input: has("body") ? "body" : has("query") ? "query" : null,
    pagination: has("cursor") ? "cursor" : has("seq") ? "seq" : null,
    file: has("file"),
  };
}

/** What a resource method needs from the client: the project, and sending a request. */
export interface ResourceClient {
  projectId(options?: RequestOptions): Promise<string>;
  request(
    route: Route,
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

/** The HTTP request of a call: the path filled, the body or the query (as the route takes), a file read as bytes. */
export function routeRequest(route: Route, params: Record<string, unknown> | undefined, input: unknown): HttpRequest {
  const path = fillPath(route.path, params);
  return route.input === "body"
    ? { method: route.method, path, body: input ?? {}, binary: route.file }
    : { method: route.method, path, query: input as Record<string, unknown> | undefined, binary: route.file };
}

interface ListPage {
  data: unknown[];
  hasMore: boolean;
  nextCursor?: string | null;
  nextAfterSeq?: number;
}

function nextInput(route: Route, input: unknown, page: ListPage): Record<string, unknown> | null {
  const base = (input ?? {}) as Record<string, unknown>;
  if (!page.hasMore) return null;
  if (route.pagination === "cursor") return page.nextCursor ? { ...base, cursor: page.nextCursor } : null;
  return typeof page.nextAfterSeq === "number" ? { ...base, afterSeq: page.nextAfterSeq } : null;
}

/** The method of one route: `(…ids, input?, options?)`. */
export function routeMethod(client: ResourceClient, route: Route) {
  const names = positionalParams(route.path);
  const hasInput = route.input !== null;
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
    if (!route.pagination) return new ApiPromise(call(input));
    const next: NextPage<ListPage> = (page) => {
      const following = nextInput(route, input, page);
      return following ? (call(following) as Promise<WithResponse<ListPage>>) : null;
    };
    return new PagePromise(call(input) as Promise<WithResponse<ListPage>>, next);
  };
}

/** Methods for every operation of an area of the route table. */
export function buildArea(
  client: ResourceClient,
  area: string,
  specs: Record<string, RouteSpec>,
  skip: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (!skip.has(name)) out[name] = routeMethod(client, routeOf(`${area}.${name}`, spec));
  }
  return out;
}
