import { z } from "zod";

/** Every stable error code with its HTTP status. The spec's codes plus the ones this implementation adds. */
export const ERROR_STATUS = {
  "request.invalid": 400,
  "request.too_large": 413,
  "request.unsupported_media_type": 415,
  "route.not_found": 404,
  "route.method_not_allowed": 405,
  "auth.unauthorized": 401,
  "auth.forbidden": 403,
  "rate_limit.exceeded": 429,
  "idempotency.conflict": 409,
  "idempotency.in_progress": 409,
  "internal.error": 500,
  "service.unavailable": 503,
  "budget.exceeded": 403,
  "project.not_found": 404,
  "api_key.not_found": 404,
  "environment.not_found": 404,
  "environment.archived": 409,
  "vault.not_found": 404,
  "vault.name_taken": 409,
  "memory_store.not_found": 404,
  "memory_store.name_taken": 409,
  "knowledge_base.not_found": 404,
  "knowledge_document.not_found": 404,
  "dataset.not_found": 404,
  "budget.not_found": 404,
  "serverless_tool.not_found": 404,
  "serverless_tool.name_taken": 409,
  "serverless_tool.version_conflict": 409,
  "serverless_tool.vault_not_found": 422,
  "serverless_tool.version_not_found": 404,
  "serverless_tool.archived": 409,
  "environment.is_default": 409,
  "memory_entry.not_found": 404,
  "dataset.too_many_cases": 409,
  "dataset.case_not_found": 404,
  "budget.agent_not_found": 422,
  "serverless.tool_not_found": 422,
  "agent.not_found": 404,
  "agent.version_not_found": 404,
  "agent.mcp_server_not_found": 404,
  "agent.version_conflict": 409,
  "agent.archived": 409,
  "agent.restore_invalid": 422,
  "agent.duplicate_invalid": 422,
  "agent.invalid_roster": 422,
  "agent.unknown_knowledge_base": 422,
  "agent.environment_not_found": 422,
  "agent.vault_not_found": 422,
  "agent.memory_store_not_found": 422,
  "agent.skill_not_found": 422,
  "agent.invalid_model": 422,
  "automation.not_found": 404,
  "automation.agent_archived": 422,
  "automation.agent_version_not_found": 422,
  "automation.environment_not_found": 422,
  "automation.vault_not_found": 422,
  "automation.memory_store_not_found": 422,
  "automation.unparseable_schedule": 422,
  "experiment.not_found": 404,
  "experiment.empty_dataset": 400,
  "experiment.too_many_cases": 400,
  "experiment.invalid_model": 422,
  "experiment.not_comparable": 422,
  "webhook.not_found": 404,
  "webhook.delivery_not_found": 404,
  "webhook.project_not_found": 422,
  "skill.not_found": 404,
  "skill.version_not_found": 404,
  "skill.file_not_found": 404,
  "skill.version_conflict": 409,
  "skill.archived": 409,
  "skill.invalid_manifest": 422,
  "signature.invalid": 403,
  "signature.expired": 403,
  "session.not_found": 404,
  "session.archived": 409,
  "session.agent_archived": 409,
  "session.invalid_event": 409,
  "session.environment_not_found": 422,
  "session.vault_not_found": 422,
  "session.memory_store_not_found": 422,
  "session.artifact_not_found": 404,
  "session.file_not_found": 404,
  "session.busy": 409,
  "session.workspace_full": 409,
  "session.fork_point_open": 409,
  "environment.vault_not_found": 422,
  "environment.secret_not_found": 422,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ValidationIssueSchema = z.object({
  path: z.string().describe("Field path, dot separated (`body.tools.3.name`)"),
  message: z.string(),
});

export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.string().describe("Stable code; the field for programmatic handling"),
      message: z.string().describe("Readable diagnostic; not a contract"),
      requestId: z.string().describe("`req_` id, also in the X-Request-Id header"),
      details: z.record(z.unknown()).optional(),
    }),
  })
  .describe("Error envelope");

export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

/** `details` of `budget.exceeded`. */
export const BudgetExceededDetailsSchema = z.object({
  scope: z.enum(["workspace", "agent"]),
  meter: z.string(),
  limit: z.number(),
  used: z.number(),
});
