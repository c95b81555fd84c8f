import { type AppRoute, isZodType } from "@ts-rest/core";
import { ERROR_STATUS, type ErrorCode } from "../common/errors.js";
import { OTHER_OPERATION_ERRORS } from "./operation-errors.js";

/** Routes served without an API key (signed links). */
const PUBLIC_OPERATIONS = new Set<string>(["skills.downloadFile"]);

/** What route `metadata` may say for the document. */
export interface RouteDocMetadata {
  /** Error codes this operation returns beyond the ones every operation of its kind does (see error-rules.ts). */
  errors?: readonly ErrorCode[];
}

/** What the generator needs to know about one operation to document its errors and headers. */
export interface OperationFacts {
  id: string;
  tag: string;
  method: string;
  path: string;
  authenticated: boolean;
  /** Workspace administration: refused to member keys with 403 `auth.forbidden`. */
  admin: boolean;
  mutating: boolean;
  hasBody: boolean;
  hasInput: boolean;
  errors: readonly ErrorCode[];
}

export function operationFacts(id: string, route: AppRoute): OperationFacts {
  const metadata = (route.metadata ?? {}) as RouteDocMetadata;
  const errors = [...(metadata.errors ?? []), ...(OTHER_OPERATION_ERRORS[id] ?? [])];
  for (const code of errors) if (!(code in ERROR_STATUS)) throw new Error(`${id}: unknown error code ${code}`);
  const hasBody = route.method !== "GET" && "body" in route && isZodType(route.body);
  return {
    id,
    tag: id.split(".")[0]!,
    method: route.method,
    path: route.path,
    authenticated: !PUBLIC_OPERATIONS.has(id),
    admin: /\(admin key\)/.test(route.summary ?? ""),
    mutating: route.method !== "GET",
    hasBody,
    hasInput: hasBody || route.path.includes(":") || isZodType(route.query) || isZodType(route.headers),
    errors,
  };
}
