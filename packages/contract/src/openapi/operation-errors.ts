import type { ErrorCode } from "../common/errors.js";

/**
 * Specific error codes of operations whose route files declare none in `metadata.errors` (platform and supporting
 * resources), read from where the server throws them.
 */
export const OTHER_OPERATION_ERRORS: Record<string, readonly ErrorCode[]> = {
  "apiKeys.create": ["project.not_found"],
  "environments.create": ["environment.vault_not_found", "environment.secret_not_found"],
  "environments.update": ["environment.archived", "environment.vault_not_found", "environment.secret_not_found"],
  "environments.archive": ["environment.is_default"],
  "vaults.create": ["vault.name_taken"],
  "memoryStores.create": ["memory_store.name_taken"],
  "memoryStores.deleteEntry": ["memory_entry.not_found"],
  "knowledgeBases.getDocument": ["knowledge_document.not_found"],
  "knowledgeBases.deleteDocument": ["knowledge_document.not_found"],
  "datasets.appendCases": ["dataset.too_many_cases"],
  "datasets.create": ["dataset.too_many_cases"],
  "budgets.create": ["budget.agent_not_found"],
  "serverlessTools.create": ["serverless_tool.name_taken", "serverless_tool.vault_not_found"],
  "serverlessTools.publish": [
    "serverless_tool.version_conflict",
    "serverless_tool.archived",
    "serverless_tool.vault_not_found",
  ],
  "serverlessTools.get": ["serverless_tool.version_not_found"],
};
