import { isApiError } from "@agent-platform/sdk";

/**
 * `request.invalid` names each failing field (`details.issues[].path`, e.g. `body.tools.3.name`): the messages by the
 * form field they belong to (the path's first segment after `body`), and those of no known field apart.
 */
export function fieldErrors(
  error: unknown,
  fields: readonly string[],
): { byField: Map<string, string[]>; other: string[] } {
  const byField = new Map<string, string[]>();
  const other: string[] = [];
  if (!isApiError(error, "request.invalid")) return { byField, other };
  const issues = (error.details as { issues?: { path: string; message: string }[] } | undefined)?.issues ?? [];
  for (const issue of issues) {
    const segments = issue.path.split(".");
    const field = segments[0] === "body" ? segments[1] : segments[0];
    const rest = segments.slice(segments[0] === "body" ? 2 : 1).join(".");
    const message = rest ? `${rest}: ${issue.message}` : issue.message;
    if (field && fields.includes(field)) byField.set(field, [...(byField.get(field) ?? []), message]);
    else other.push(`${issue.path}: ${issue.message}`);
  }
  return { byField, other };
}
