import type { OperationFacts } from "./operation-facts.js";

/** What holds for the operation because of where and how it is served, in a sentence or three. */
function conventions(op: OperationFacts, paginated: boolean): string {
  const parts: string[] = [];
  if (!op.authenticated) parts.push("Public: the link's signature authorizes it; no API key.");
  else if (op.path.startsWith("/v1/projects/:projectId/")) {
    parts.push("Project-scoped: `projectId` must be the API key's project (another project's answers 404).");
  } else if (op.path.startsWith("/v1/projects") || op.path.startsWith("/v1/platform")) {
    parts.push("Workspace administration and identity.");
  } else parts.push("Workspace-scoped: any project's key of the workspace sees the same resources.");
  if (op.admin) parts.push("Needs an admin key (403 `auth.forbidden` for a member key).");
  if (paginated) parts.push("Cursor list: pass `nextCursor` as `cursor` while `hasMore` is true.");
  if (op.mutating && op.authenticated) parts.push("Safe to retry with an `Idempotency-Key`.");
  return parts.join(" ");
}

/** The route's own description (when it has one) followed by the conventions that apply to it. */
export function operationDescription(op: OperationFacts, own: string | undefined, paginated: boolean): string {
  const rest = conventions(op, paginated);
  return own ? `${own}\n\n${rest}` : rest;
}
