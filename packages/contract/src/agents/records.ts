import { z } from "zod";
import { idOf, Name, NullableTimestamp, Timestamp } from "../common/fields.js";
import { PageQuerySchema } from "../common/pagination.js";
import { AgentConfigSchema, AgentVersionNumber, HeadersSchema, McpServerNameSchema } from "./config.js";
import { ModelRefSchema } from "./model.js";

/**
 * An agent as reads return it: the configuration of one version plus the agent's identity and timestamps. MCP servers
 * carry `headerKeys` (names of the credentials stored today), never header values.
 */
export const AgentSchema = z
  .object({
    id: idOf("agent"),
    projectId: idOf("proj"),
    version: z.number().int().min(1).describe("Version of this configuration (the current one unless `?version=`)"),
    ...AgentConfigSchema.shape,
    createdAt: Timestamp,
    updatedAt: Timestamp.describe(
      "For the current version, the last write to the agent; for an older version, when it was published",
    ),
    archivedAt: NullableTimestamp,
  })
  .describe("Agent record");

export const AgentStatusFilterSchema = z.enum(["active", "archived", "all"]);

export const ListAgentsQuerySchema = PageQuerySchema.extend({
  status: AgentStatusFilterSchema.default("active").describe("`active` (default), `archived` or `all`"),
  name: z.string().min(1).max(200).optional().describe("Case-insensitive substring of the name"),
});

export const GetAgentQuerySchema = z.object({
  version: z.coerce
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional()
    .describe("A version of the history; the current one when absent"),
});

export const AgentPathSchema = z.object({ projectId: z.string(), id: z.string() });

export const DuplicateAgentSchema = z
  .object({
    name: Name.optional().describe("Name of the clone; `<source name> (cópia)` when absent"),
    model: ModelRefSchema.optional().describe("Model of the clone; the source's model when absent"),
  })
  .strict();

export const ArchiveAgentSchema = z.object({}).strict().describe("Empty object (or no body)");

export const RestoreAgentSchema = z
  .object({ version: AgentVersionNumber.describe("The current version you expect (optimistic lock)") })
  .strict();

export const RotateMcpHeadersSchema = z
  .object({
    headers: HeadersSchema.refine((h) => Object.keys(h).length > 0, {
      message: "at least one header is required",
    }).describe("Headers to set, merged by name (case-insensitive) into the stored set; the others are kept"),
  })
  .strict();

export const McpHeadersRotationSchema = z
  .object({
    agentId: idOf("agent"),
    serverName: McpServerNameSchema,
    version: z.number().int().describe("The unchanged current version: rotation publishes no version"),
    headerKeys: z.array(z.string()).describe("Names of the headers now stored; values are never returned"),
  })
  .describe("Result of an MCP header rotation");

export type Agent = z.infer<typeof AgentSchema>;
export type ListAgentsQuery = z.infer<typeof ListAgentsQuerySchema>;
export type DuplicateAgentInput = z.infer<typeof DuplicateAgentSchema>;
export type McpHeadersRotation = z.infer<typeof McpHeadersRotationSchema>;
