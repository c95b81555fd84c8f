import type { ErrorCode } from "../common/errors.js";
import type { OperationFacts } from "./operation-facts.js";

/** The not-found code of each area's `{id}` (the resource the path names). */
const NOT_FOUND_BY_TAG: Record<string, ErrorCode> = {
  platform: "project.not_found",
  projects: "project.not_found",
  apiKeys: "api_key.not_found",
  agents: "agent.not_found",
  artifacts: "session.not_found",
  sessions: "session.not_found",
  sessionFiles: "session.not_found",
  automations: "automation.not_found",
  experiments: "experiment.not_found",
  skills: "skill.not_found",
  webhooks: "webhook.not_found",
  environments: "environment.not_found",
  vaults: "vault.not_found",
  memoryStores: "memory_store.not_found",
  knowledgeBases: "knowledge_base.not_found",
  datasets: "dataset.not_found",
  budgets: "budget.not_found",
  serverlessTools: "serverless_tool.not_found",
};

/** Areas that answer another project's `projectId` with their own not-found code rather than `project.not_found`. */
const PROJECT_NOT_FOUND_BY_TAG: Record<string, ErrorCode> = { agents: "agent.not_found" };

/**
 * Every error code an operation can return: the ones the request pipeline produces for any operation of its kind
 * (authentication, rate limiting, validation, body parsing, idempotency, path lookups, outages) plus the route's own.
 * 405 `route.method_not_allowed` belongs to paths, not operations: the document's description explains it.
 */
export function errorCodesOf(op: OperationFacts): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (op.hasInput) codes.add("request.invalid");
  if (op.authenticated) {
    codes.add("auth.unauthorized");
    codes.add("rate_limit.exceeded");
  }
  if (op.admin) codes.add("auth.forbidden");
  if (op.path.includes(":projectId")) codes.add(PROJECT_NOT_FOUND_BY_TAG[op.tag] ?? "project.not_found");
  if (op.path.includes(":id") && NOT_FOUND_BY_TAG[op.tag]) codes.add(NOT_FOUND_BY_TAG[op.tag]!);
  if (op.hasBody) {
    codes.add("request.too_large");
    codes.add("request.unsupported_media_type");
  }
  if (op.mutating && op.authenticated) {
    codes.add("idempotency.conflict");
    codes.add("idempotency.in_progress");
  }
  for (const code of op.errors) codes.add(code);
  codes.add("internal.error");
  codes.add("service.unavailable");
  return [...codes];
}
