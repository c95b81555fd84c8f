import type {
  AppRoute,
  AppRouteMutation,
  AppRouter,
  ClientInferResponseBody,
  ContractNoBodyType,
  ZodInputOrType,
} from "@ts-rest/core";
import type { ApiPromise, PagePromise } from "./api-promise.js";
import type { RequestOptions } from "./transport.js";

/** `:name` segments of a path, in order. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...ParamNames<`/${Rest}`>]
  : P extends `${string}:${infer Name}`
    ? [Name]
    : [];

/** Project-scoped routes take their project from the client (`/v1/projects/:projectId/…`). */
export type PositionalParams<P extends string> = P extends `/v1/projects/:projectId/${infer Rest}`
  ? ParamNames<`/${Rest}`>
  : ParamNames<P>;

type Id = string | number;
/** Path parameters as arguments, named like the contract's (for editors) where the shape is a known one. */
type ToArgs<T> = T extends []
  ? []
  : T extends ["id"]
    ? [id: Id]
    : T extends ["projectId"]
      ? [projectId: Id]
      : T extends ["id", "version"]
        ? [id: Id, version: Id]
        : T extends ["id", "name"]
          ? [id: Id, name: Id]
          : T extends ["id", "path"]
            ? [id: Id, path: Id]
            : T extends ["id", "deliveryId"]
              ? [id: Id, deliveryId: Id]
              : T extends ["id", "documentId"]
                ? [id: Id, documentId: Id]
                : T extends ["id", "version", "path"]
                  ? [id: Id, version: Id, path: Id]
                  : { [K in keyof T]: Id };
type PathArgs<R extends AppRoute> = ToArgs<PositionalParams<R["path"]>>;

/** The body of a mutation, else the query; never when the route takes neither. */
export type RouteInput<R extends AppRoute> = R extends AppRouteMutation
  ? R["body"] extends ContractNoBodyType | undefined | null
    ? QueryInput<R>
    : ZodInputOrType<R["body"]>
  : QueryInput<R>;

type QueryInput<R extends AppRoute> = R extends { query: infer Q }
  ? Q extends undefined | null
    ? never
    : ZodInputOrType<Q>
  : never;

type SuccessStatus = 200 | 201 | 202 | 204;
type Body<R extends AppRoute> = ClientInferResponseBody<R, Extract<keyof R["responses"], SuccessStatus>>;
export type RouteOutput<R extends AppRoute> = [Body<R>] extends [undefined | ContractNoBodyType] ? undefined : Body<R>;

/** A cursor list (`nextCursor`) or the log (`nextAfterSeq`) is a `PagePromise`; anything else an `ApiPromise`. */
export type RouteResult<T> = T extends { data: (infer Item)[]; hasMore: boolean; nextCursor: string | null }
  ? PagePromise<T, Item>
  : T extends { data: (infer Item)[]; hasMore: boolean; nextAfterSeq: number }
    ? PagePromise<T, Item>
    : ApiPromise<T>;

type Call<Ids extends unknown[], Input, Out> = [Input] extends [never]
  ? (...args: [...ids: Ids, options?: RequestOptions]) => Out
  : {} extends Input
    ? (...args: [...ids: Ids, input?: Input, options?: RequestOptions]) => Out
    : (...args: [...ids: Ids, input: Input, options?: RequestOptions]) => Out;

/** `(…path ids after projectId, input?, options?)` → the success body (a page for lists). */
export type RouteMethod<R extends AppRoute> = Call<
  PathArgs<R> extends unknown[] ? PathArgs<R> : never,
  RouteInput<R>,
  RouteResult<RouteOutput<R>>
>;

/** A router's operations as methods (nested routers become nested objects). */
export type Resource<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? RouteMethod<T[K]> : T[K] extends AppRouter ? Resource<T[K]> : never;
};
