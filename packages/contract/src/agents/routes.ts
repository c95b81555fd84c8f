import { z } from "zod";
import type { ErrorCode } from "../common/errors.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import type { RouteDocMetadata } from "../openapi/operation-facts.js";
import { CreateAgentSchema, UpdateAgentSchema } from "./config.js";
import {
  AgentPathSchema,
  AgentSchema,
  ArchiveAgentSchema,
  DuplicateAgentSchema,
  GetAgentQuerySchema,
  ListAgentsQuerySchema,
  McpHeadersRotationSchema,
  RestoreAgentSchema,
  RotateMcpHeadersSchema,
} from "./records.js";

const BASE = "/v1/projects/:projectId/agents";

/** What creating or updating a configuration answers when one of its references cannot be used. */
const AGENT_REFERENCE_ERRORS = [
  "agent.invalid_roster",
  "agent.unknown_knowledge_base",
  "agent.environment_not_found",
  "agent.vault_not_found",
  "agent.memory_store_not_found",
  "agent.skill_not_found",
  "serverless.tool_not_found",
  "agent.invalid_model",
] as const satisfies readonly ErrorCode[];

export const agentsContract = c.router(
  {
    create: {
      method: "POST",
      path: BASE,
      pathParams: z.object({ projectId: z.string() }),
      body: CreateAgentSchema,
      responses: { 201: AgentSchema },
      summary: "Create an agent (publishes version 1)",
      metadata: {
        errors: AGENT_REFERENCE_ERRORS,
      } satisfies RouteDocMetadata,
      description:
        "Validates every reference (environment, vaults, memory stores, knowledge bases, skills, serverless tools, roster entries) against the project and workspace; a 422 names the first one that cannot be used. MCP header values are stored sealed: reads only return their names in `headerKeys`.",
    },
    list: {
      method: "GET",
      path: BASE,
      pathParams: z.object({ projectId: z.string() }),
      query: ListAgentsQuerySchema,
      responses: { 200: cursorPage(AgentSchema) },
      summary: "List agents, newest first, filtered by status and name",
      description:
        "Items are agent records at their current version. `status` defaults to `active`; `name` matches a case-insensitive substring.",
    },
    get: {
      method: "GET",
      path: `${BASE}/:id`,
      pathParams: AgentPathSchema,
      query: GetAgentQuerySchema,
      responses: { 200: AgentSchema },
      summary: "Get an agent at its current version, or at `?version=`",
      metadata: { errors: ["agent.version_not_found"] } satisfies RouteDocMetadata,
      description:
        "With `?version=`, the record as that version was published (404 `agent.version_not_found` when it never existed); `updatedAt` is then the publication time.",
    },
    update: {
      method: "POST",
      path: `${BASE}/:id`,
      pathParams: AgentPathSchema,
      body: UpdateAgentSchema,
      responses: { 200: AgentSchema },
      summary: "Patch an agent; an effective change publishes the next version",
      description:
        "`version` is the current version you expect (409 `agent.version_conflict` otherwise). Omitted fields keep " +
        "their value; lists and configuration objects replace the whole value; `metadata` merges by key (an empty " +
        "string removes a key); `null` clears only `multiagent`, `browser`, `defaults` and `recordBrowser`. A patch " +
        "that changes nothing publishes nothing and returns the agent.",
      metadata: {
        errors: ["agent.version_conflict", "agent.archived", ...AGENT_REFERENCE_ERRORS],
      } satisfies RouteDocMetadata,
    },
    duplicate: {
      method: "POST",
      path: `${BASE}/:id/duplicate`,
      pathParams: AgentPathSchema,
      body: DuplicateAgentSchema,
      responses: { 201: AgentSchema },
      summary: "Copy the current configuration (and MCP credentials) into a new agent at version 1",
      metadata: { errors: ["agent.duplicate_invalid"] } satisfies RouteDocMetadata,
      description:
        "Works on archived agents too: duplicating is how an archived agent is revived. The configuration is validated again for the clone (422 `agent.duplicate_invalid` with the cause); the clone gets its own copy of the MCP header values.",
    },
    archive: {
      method: "POST",
      path: `${BASE}/:id/archive`,
      pathParams: AgentPathSchema,
      body: ArchiveAgentSchema,
      responses: { 200: AgentSchema },
      summary: "Archive an agent (idempotent); it then refuses writes and new roster links",
      description:
        "Archiving again keeps the first `archivedAt`. Sessions and roster entries already pinned keep working; writes, new sessions, experiments and roster links are refused with 409 `agent.archived`.",
    },
    restore: {
      method: "POST",
      path: `${BASE}/:id/versions/:version/restore`,
      pathParams: AgentPathSchema.extend({
        version: z
          .string()
          .regex(/^[1-9][0-9]{0,8}$/, "a version number (1, 2, …)")
          .describe("Source version"),
      }),
      body: RestoreAgentSchema,
      responses: { 200: AgentSchema },
      summary: "Publish the configuration of an older version as the new current version",
      description:
        "The body carries only the current version you expect. The source configuration is validated again " +
        "(422 `agent.restore_invalid` names the version and the cause) and today's MCP credentials are kept.",
      metadata: {
        errors: ["agent.version_not_found", "agent.version_conflict", "agent.archived", "agent.restore_invalid"],
      } satisfies RouteDocMetadata,
    },
    rotateMcpHeaders: {
      method: "PUT",
      path: `${BASE}/:id/mcp-servers/:name/headers`,
      pathParams: AgentPathSchema.extend({ name: z.string().max(64) }),
      body: RotateMcpHeadersSchema,
      responses: { 200: McpHeadersRotationSchema },
      summary: "Set MCP header values of a declared server without publishing a version",
      metadata: { errors: ["agent.mcp_server_not_found", "agent.archived"] } satisfies RouteDocMetadata,
      description:
        "Merges the headers by name into the stored set and applies at once, running sessions included (credentials are read when connecting to the server). `version` does not change. 404 `agent.mcp_server_not_found` when the current configuration declares no server of that name.",
    },
    listVersions: {
      method: "GET",
      path: `${BASE}/:id/versions`,
      pathParams: AgentPathSchema,
      query: PageQuerySchema,
      responses: { 200: cursorPage(AgentSchema) },
      summary: "Version history, newest first (each item is the agent record at that version)",
      description:
        "Versions are immutable: each item is the agent record exactly as that version was published (MCP header names only).",
    },
  },
  routerOptions,
);
