import type { JsonObject } from "./json.js";

export const API_VERSION = "0.1.0";

const DESCRIPTION = `HTTP/JSON API for configuring and running AI agents. Five areas:

- **Agents**: versioned configurations inside a project; every effective change publishes an immutable version, writes
  carry the expected current \`version\` (optimistic lock).
- **Sessions**: stateful executions of an agent; user events go in, an ordered event log comes out (read in pages or
  followed as Server-Sent Events).
- **Automations**: a prompt an agent runs on a cron schedule or on demand; each firing creates a session and a run.
- **Experiments**: run every case of a dataset through a model or an agent, score the outputs, aggregate the metrics.
- **Skills**: versioned packages of files that agents reference.

Supporting resources (projects, API keys, environments, vaults, memory stores, knowledge bases, datasets, serverless
tools, budgets, webhooks, governance) are referred to by id from these areas.

## Conventions

- **Authentication**: every request carries \`Authorization: Bearer <API_KEY>\` (except signed file links). A key
  belongs to one project: another project's resources answer 404, never 403. Workspace administration needs an admin
  key (403 \`auth.forbidden\` otherwise).
- **Errors** use one envelope, \`{ "error": { "code", "message", "requestId", "details"? } }\`. \`code\` is stable and is
  what programs should branch on. Each operation lists the statuses it can return and, per status, its codes (also in
  the \`x-error-codes\` extension of the response). A known path called with another method answers 405
  \`route.method_not_allowed\` with an \`Allow\` header; an unknown path 404 \`route.not_found\`.
- **Request ids**: every answer carries \`X-Request-Id\` (the \`requestId\` of errors).
- **Idempotency**: mutating requests accept \`Idempotency-Key\`; a retry with the same key and body replays the first
  answer with \`Idempotent-Replayed: true\`.
- **Pagination**: lists take \`limit\` and \`cursor\` and answer \`{ data, hasMore, nextCursor }\`; the session log takes
  \`afterSeq\` and answers \`nextAfterSeq\`.
- **Rate limiting** (when the operator sets one): 429 \`rate_limit.exceeded\` with \`Retry-After\`.
- **Outages**: 503 \`service.unavailable\` with \`Retry-After\` while the database is unreachable.`;

/** Tag of each router of the contract, with what its operations are about. */
export const TAGS: { name: string; description: string }[] = [
  { name: "platform", description: "Who the API key is: its project, workspace and role." },
  { name: "projects", description: "Projects of the workspace; each has a default environment (admin key to create)." },
  { name: "apiKeys", description: "API keys of the workspace, each bound to one project (admin key)." },
  {
    name: "agents",
    description: "Versioned agent configurations: create, patch (optimistic lock), restore, archive, duplicate.",
  },
  { name: "sessions", description: "Executions of an agent: create, send events, read or follow the ordered log." },
  { name: "sessionFiles", description: "Files of a session's workspace (`/workspace`): upload, list, download." },
  { name: "artifacts", description: "Deliverables a session produced, latest version of each with a signed URL." },
  {
    name: "automations",
    description: "Prompts run on a cron schedule or on demand; each firing creates a session and a run record.",
  },
  {
    name: "experiments",
    description: "Dataset cases run through a model or an agent, scored, with aggregated metrics.",
  },
  { name: "skills", description: "Versioned packages of files agents reference; versions are immutable." },
  {
    name: "environments",
    description: "Execution environments of a project: networking, packages, variables, resources.",
  },
  { name: "vaults", description: "Workspace secret stores; secret values are write-only." },
  { name: "memoryStores", description: "Key-value memory that sessions mount read-only or read-write." },
  { name: "knowledgeBases", description: "Document collections agents search with the `knowledge_search` tool." },
  { name: "datasets", description: "Cases (input, optional expected output) that experiments run." },
  { name: "budgets", description: "Consumption ceilings per workspace or agent, with current usage (admin key)." },
  { name: "serverlessTools", description: "HTTP endpoints exposed to agents as versioned tools." },
  {
    name: "webhooks",
    description:
      "Endpoints notified of platform events, signed (Standard Webhooks), with delivery history (admin key).",
  },
  { name: "governance", description: "Workspace-wide policies, such as which hosts agents may reach." },
  { name: "models", description: "The model catalogue: limits, prices, capabilities, and which providers are set up." },
  { name: "tools", description: "The built-in tools an agent can list by name." },
];

export function documentInfo(): JsonObject {
  return {
    info: {
      title: "Agent Platform API",
      version: API_VERSION,
      description: DESCRIPTION,
      license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
    },
    servers: [{ url: "/", description: "The server that serves this document" }],
    tags: TAGS,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "API key: `Authorization: Bearer <API_KEY>`" },
      },
    },
    security: [{ bearerAuth: [] }],
  };
}
