import { contract } from "@agent-platform/contract";
import { type AppRoute, type AppRouter, isAppRoute } from "@ts-rest/core";
import type { AnsweredRoute, ResponseValidator } from "./validate-response.js";

interface SafeParser {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: { path: (string | number)[]; message: string }[] };
  };
}

function routeByOperation(operation: string): AppRoute | undefined {
  let node: AppRouter | AppRoute | undefined = contract;
  for (const key of operation.split(".")) {
    if (!node || isAppRoute(node)) return undefined;
    node = (node as AppRouter)[key];
  }
  return node && isAppRoute(node) ? node : undefined;
}

/**
 * Checks a success body against the contract's schema of the route without changing it: the caller keeps the body as
 * received, so fields and enum values a newer server added are neither stripped nor fatal.
 */
export const contractValidator: ResponseValidator = (route: AnsweredRoute, status: number, body: unknown) => {
  const schema = (routeByOperation(route.operation)?.responses as Record<number, unknown> | undefined)?.[status] as
    | Partial<SafeParser>
    | undefined;
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
};
