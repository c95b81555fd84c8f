import { z } from "zod";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
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

export const agentsContract = c.router(
  {
    create: {
      method: "POST",
      path: BASE,
      pathParams: z.object({ projectId: z.string() }),
      body: CreateAgentSchema,
      responses: { 201: AgentSchema },
      summary: "Create an agent (publishes version 1)",
    },
    list: {
      method: "GET",
      path: BASE,
      pathParams: z.object({ projectId: z.string() }),
      query: ListAgentsQuerySchema,
      responses: { 200: cursorPage(AgentSchema) },
      summary: "List agents, newest first, filtered by status and name",
    },
    get: {
      method: "GET",
      path: `${BASE}/:id`,
      pathParams: AgentPathSchema,
      query: GetAgentQuerySchema,
      responses: { 200: AgentSchema },
      summary: "Get an agent at its current version, or at `?version=`",
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
    },
    duplicate: {
      method: "POST",
      path: `${BASE}/:id/duplicate`,
      pathParams: AgentPathSchema,
      body: DuplicateAgentSchema,
      responses: { 201: AgentSchema },
      summary: "Copy the current configuration (and MCP credentials) into a new agent at version 1",
    },
    archive: {
      method: "POST",
      path: `${BASE}/:id/archive`,
      pathParams: AgentPathSchema,
      body: ArchiveAgentSchema,
      responses: { 200: AgentSchema },
      summary: "Archive an agent (idempotent); it then refuses writes and new roster links",
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
    },
    rotateMcpHeaders: {
      method: "PUT",
      path: `${BASE}/:id/mcp-servers/:name/headers`,
      pathParams: AgentPathSchema.extend({ name: z.string().max(64) }),
      body: RotateMcpHeadersSchema,
      responses: { 200: McpHeadersRotationSchema },
      summary: "Set MCP header values of a declared server without publishing a version",
    },
    listVersions: {
      method: "GET",
      path: `${BASE}/:id/versions`,
      pathParams: AgentPathSchema,
      query: PageQuerySchema,
      responses: { 200: cursorPage(AgentSchema) },
      summary: "Version history, newest first (each item is the agent record at that version)",
    },
  },
  routerOptions,
);
