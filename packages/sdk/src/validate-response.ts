import type { AppRoute } from "@ts-rest/core";

export interface ResponseValidationIssue {
  method: string;
  path: string;
  status: number;
  message: string;
  /** Zod's issues (field paths and messages). */
  issues: { path: (string | number)[]; message: string }[];
}

interface SafeParser {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: { path: (string | number)[]; message: string }[] };
  };
}

/**
 * Checks a success body against the route's schema without changing it: the caller keeps the body as received, so
 * fields and enum values a newer server added are neither stripped nor fatal. Returns the mismatch, if any.
 */
export function checkResponse(route: AppRoute, status: number, body: unknown): ResponseValidationIssue | undefined {
  const schema = (route.responses as Record<number, unknown>)[status] as Partial<SafeParser> | undefined;
  if (typeof schema?.safeParse !== "function") return undefined;
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  const issues = (result.error?.issues ?? []).map((i) => ({ path: i.path, message: i.message }));
  const where = issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ");
  return {
    method: route.method,
    path: route.path,
    status,
    issues,
    message: `${route.method} ${route.path} answered ${status} with a body the contract does not describe: ${where}`,
  };
}
