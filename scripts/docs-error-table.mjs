// Writes the error-code table of docs/api.md (between the error-codes markers) from the contract's ERROR_STATUS.
// `node scripts/docs-error-table.mjs` rewrites it; `--check` exits 1 when docs/api.md is not what it would write;
// `--file <path>` works on another copy of the page (tests).
// Needs the built contract (`pnpm docs:errors` builds it first). Every code needs a meaning below: a code without one
// (or a meaning for a code that no longer exists) stops the script.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const START = "<!-- error-codes:start -->";
export const END = "<!-- error-codes:end -->";
export const API_MD = fileURLToPath(new URL("../docs/api.md", import.meta.url));

/** One line per code: when the platform answers it. */
export const MEANINGS = {
  "request.invalid": "the request does not match the schema (path, query or body); `details.issues` lists each field",
  "request.too_large": "the body is over 10 MiB",
  "request.unsupported_media_type": "a body that is not JSON",
  "route.not_found": "no such route",
  "route.method_not_allowed": "the path exists with other methods (the `Allow` header lists them)",
  "auth.unauthorized": "missing, malformed, unknown or revoked API key",
  "auth.forbidden":
    "an admin-only route (workspace administration: projects, API keys, budgets, webhooks, workspace policies) with a member key",
  "rate_limit.exceeded":
    "over `RATE_LIMIT_PER_MINUTE` requests per minute with this key; `Retry-After` says when to retry",
  "idempotency.conflict": "an `Idempotency-Key` reused with another method, path or body",
  "idempotency.in_progress": "the first request with this `Idempotency-Key` is still running",
  "internal.error": "an unexpected failure (logged with the request id)",
  "service.unavailable": "the database cannot be reached (down, restarting, out of connections); `Retry-After: 2`",
  "budget.exceeded":
    "a blocking budget has no room for this session, model call or token use; `details` has `scope`, `meter`, `limit`, `used`",
  "project.not_found": "no such project for this key",
  "api_key.not_found": "no such API key in the workspace",
  "environment.not_found": "no such environment in the project",
  "environment.archived": "the environment is archived and refuses edits",
  "vault.not_found": "no such vault in the workspace",
  "vault.name_taken": "another vault of the workspace has this name",
  "memory_store.not_found": "no such memory store in the project",
  "memory_store.name_taken": "another memory store of the project has this name",
  "knowledge_base.not_found": "no such knowledge base in the project",
  "knowledge_document.not_found": "no such document in the knowledge base",
  "embedding.invalid_model":
    "`embeddingModel` of a knowledge base or memory store: unknown provider or builtin model, a provider without credentials, or dimensions the model cannot give",
  "embedding.failed": "a `semantic` search could not embed its query: the embedding provider failed (after retries)",
  "dataset.not_found": "no such dataset in the project",
  "budget.not_found": "no such budget in the workspace",
  "serverless_tool.not_found": "no such serverless tool in the project",
  "serverless_tool.name_taken": "another serverless tool of the project has this name",
  "serverless_tool.version_conflict": "`expectedVersion` is not the tool's current version (someone published first)",
  "serverless_tool.vault_not_found": "a vault the tool version references is not in the workspace",
  "serverless_tool.version_not_found": "the serverless tool has no such version",
  "serverless_tool.archived": "the serverless tool is archived and refuses new versions",
  "environment.is_default": "the project's default environment cannot be archived",
  "memory_entry.not_found": "the memory store has no entry with this key",
  "dataset.too_many_cases": "the append would take the dataset past 10,000 cases (nothing is written)",
  "dataset.case_not_found": "no such case in the dataset (or the dataset is in another project)",
  "budget.agent_not_found": "an agent-scoped budget names an agent that is not in the workspace",
  "serverless.tool_not_found":
    "an agent references a serverless tool version that does not exist in the project, or an archived tool",
  "agent.not_found": "no such agent in the project",
  "agent.version_not_found": "the agent has no such version",
  "agent.mcp_server_not_found": "the agent's current version has no MCP server with this name",
  "agent.version_conflict": "`expectedVersion` is not the agent's current version (someone saved first)",
  "agent.archived":
    "the agent is archived: it refuses updates, restores, rotations and new sessions (duplicate it to revive it)",
  "agent.restore_invalid": "the version to restore no longer validates (`details.cause`)",
  "agent.duplicate_invalid": "the version to duplicate (or the override model) no longer validates (`details.cause`)",
  "agent.invalid_roster":
    "a roster target that is missing, archived, the agent itself, a coordinator, or a version that does not exist",
  "agent.unknown_knowledge_base": "a knowledge base that is not in the project",
  "agent.environment_not_found": "a default environment that is not in the project or is archived",
  "agent.vault_not_found": "a default vault that is not in the workspace",
  "agent.memory_store_not_found": "a default memory store that is not in the project",
  "agent.skill_not_found": "a skill version that does not exist, or an archived skill",
  "agent.invalid_model": "an unknown provider or model, or a provider without credentials",
  "automation.not_found": "no such automation in the project",
  "automation.agent_archived": "the automation would run an archived agent",
  "automation.agent_version_not_found": "the automation pins an agent version that does not exist",
  "automation.environment_not_found": "the automation names an environment that is not in the project or is archived",
  "automation.vault_not_found": "the automation names a vault that is not in the workspace",
  "automation.memory_store_not_found": "the automation names a memory store that is not in the project",
  "automation.unparseable_schedule": "the schedule text could not be read (the message says what was not understood)",
  "experiment.not_found": "no such experiment in the project",
  "experiment.empty_dataset": "the dataset has no cases",
  "experiment.too_many_cases":
    "an agent task over a dataset of more than 200 cases (the message carries the ceiling and the count)",
  "experiment.invalid_model":
    "the task's or a judge's model cannot be used (unknown provider or model, no credentials)",
  "experiment.not_comparable": "the baseline experiment ran over another dataset",
  "webhook.not_found": "no such webhook endpoint in the workspace",
  "webhook.delivery_not_found": "the endpoint has no such delivery",
  "webhook.project_not_found": "the endpoint is scoped to a project that is not in the workspace",
  "skill.not_found": "no such skill in the project",
  "skill.version_not_found": "the skill has no such version",
  "skill.file_not_found": "the skill version has no file at this path",
  "skill.version_conflict": "`expectedVersion` is not the skill's current version (someone published first)",
  "skill.archived": "the skill is archived and refuses new versions",
  "skill.invalid_manifest": "the skill's files or `SKILL.md` front matter are invalid",
  "signature.invalid": "a signed link that was tampered with, is incomplete or malformed",
  "signature.expired": "a signed link used after its `expiresAt`",
  "session.not_found": "no such session in the project",
  "session.archived": "the session is archived and refuses events",
  "session.agent_archived":
    "reserved, not answered today (creating a session on an archived agent answers `agent.archived`)",
  "session.invalid_event": "an answer to a tool use the session does not wait on, or one already answered",
  "session.environment_not_found": "the session's environment is not in the project or is archived",
  "session.vault_not_found": "a vault of the session is not in the workspace",
  "session.memory_store_not_found": "a memory store of the session is not in the project",
  "session.artifact_not_found": "the session has no such artifact",
  "session.file_not_found": "the session's workspace has no file at this path (or it is a link or a folder)",
  "session.busy": "a file upload while a turn is running",
  "session.workspace_full": "the upload would take the session's workspace past the environment's `workspaceMb`",
  "session.fork_point_open":
    "the fork point is inside an open turn (running, a tool use without a result, or waiting on pending actions)",
  "environment.vault_not_found": "an environment secret references a vault that is not in the workspace",
  "environment.secret_not_found": "an environment secret references a key the vault does not hold",
};

/** The table (with its markers) for these codes and statuses; throws when a code has no meaning or a meaning no code. */
export function renderErrorTable(errorStatus, meanings = MEANINGS) {
  const codes = Object.keys(errorStatus);
  const missing = codes.filter((code) => !meanings[code]?.trim());
  if (missing.length > 0) {
    throw new Error(`scripts/docs-error-table.mjs: add a meaning to MEANINGS for ${missing.join(", ")}`);
  }
  const stale = Object.keys(meanings).filter((code) => !(code in errorStatus));
  if (stale.length > 0) {
    throw new Error(`scripts/docs-error-table.mjs: MEANINGS has codes ERROR_STATUS no longer has: ${stale.join(", ")}`);
  }
  const rows = codes.map((code) => `| \`${code}\` | ${errorStatus[code]} | ${meanings[code]} |`);
  return [
    START,
    "<!-- generated by `pnpm docs:errors` from ERROR_STATUS in packages/contract/src/common/errors.ts; do not edit -->",
    "",
    "| code | HTTP | meaning |",
    "|---|---|---|",
    ...rows,
    "",
    END,
  ].join("\n");
}

/** `markdown` with the part between the markers (included) replaced by `table`. */
export function replaceErrorTable(markdown, table) {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start === -1 || end === -1 || end < start) throw new Error(`docs/api.md needs ${START} … ${END} markers`);
  return markdown.slice(0, start) + table + markdown.slice(end + END.length);
}

async function main() {
  const { ERROR_STATUS } = await import("../packages/contract/dist/common/errors.js");
  const fileArg = process.argv.indexOf("--file");
  const file = fileArg === -1 ? API_MD : process.argv[fileArg + 1];
  const current = readFileSync(file, "utf8");
  const next = replaceErrorTable(current, renderErrorTable(ERROR_STATUS));
  if (process.argv.includes("--check")) {
    if (next !== current) {
      console.error(`${file}: the error-code table is stale; run \`pnpm docs:errors\``);
      process.exit(1);
    }
    return;
  }
  if (next !== current) writeFileSync(file, next);
  console.log(`${file}: ${Object.keys(ERROR_STATUS).length} error codes`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
