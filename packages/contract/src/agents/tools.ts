import { z } from "zod";
import { LIMITS } from "../common/limits.js";

/**
 * Built-in tools an agent can list in `tools` by name. `readOnly` tools never change anything outside the session
 * (read confinement keeps only those).
 */
export const BUILTIN_TOOLS = {
  web_fetch: { readOnly: true, description: "Fetch a URL over HTTP(S) (GET), within the egress policy" },
  memory_list: { readOnly: true, description: "List entries of the session's mounted memory stores" },
  memory_read: { readOnly: true, description: "Read one memory entry" },
  memory_search: { readOnly: true, description: "Full-text search in the mounted memory stores" },
  memory_write: { readOnly: false, description: "Create or replace a memory entry (read-write mounts only)" },
  knowledge_search: { readOnly: true, description: "Search the agent's allowed knowledge bases" },
  knowledge_read: { readOnly: true, description: "Read a whole document of the agent's allowed knowledge bases" },
  artifact_write: { readOnly: false, description: "Write a versioned deliverable (artifact) of the session" },
  skill_read: { readOnly: true, description: "Read a file of one of the agent's pinned skills" },
  bash: { readOnly: false, description: "Run a shell command in the session's sandboxed workspace" },
  file_read: { readOnly: true, description: "Read a file of the session's workspace" },
  file_write: { readOnly: false, description: "Create or replace a file in the session's workspace" },
  file_edit: { readOnly: false, description: "Replace an exact string in a file of the session's workspace" },
  file_list: { readOnly: true, description: "List the workspace's files matching a glob" },
  browser: {
    // Navigating, reading, going back and screenshots are read-only; under read confinement only those remain.
    readOnly: false,
    description: "Drive a headless browser: navigate, read the page, click, type, go back, take screenshots",
  },
} as const;

export type BuiltinToolName = keyof typeof BUILTIN_TOOLS;
export const BUILTIN_TOOL_NAMES = Object.keys(BUILTIN_TOOLS) as [BuiltinToolName, ...BuiltinToolName[]];

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** A JSON object bounded by the size of its serialisation (JSON Schemas carried in agent configurations). */
export function boundedJsonObject(maxBytes: number) {
  return z.record(z.unknown()).refine((value) => new TextEncoder().encode(JSON.stringify(value)).length <= maxBytes, {
    message: `at most ${maxBytes} bytes of JSON`,
  });
}

export const JsonSchemaObject = boundedJsonObject(LIMITS.agentJsonSchemaBytes)
  .refine((s) => s.type === undefined || s.type === "object", { message: "inputSchema must describe an object" })
  .describe("JSON Schema of the tool input (an object schema)");

/** Tool names the platform generates itself: a custom tool may not take them. */
export const DELEGATION_TOOL_PREFIX = "delegate_to_";

export const CustomToolSchema = z
  .object({
    type: z.literal("custom"),
    name: z
      .string()
      .regex(TOOL_NAME_PATTERN, "letters, digits, `_` and `-`, 1 to 64 characters")
      .refine((n) => !(n in BUILTIN_TOOLS), { message: "is the name of a built-in tool" })
      .refine((n) => !n.includes("__"), { message: "must not contain `__` (reserved for MCP tools)" })
      .refine((n) => !n.startsWith(DELEGATION_TOOL_PREFIX), {
        message: `must not start with \`${DELEGATION_TOOL_PREFIX}\` (reserved for delegation tools)`,
      }),
    description: z.string().min(1).max(4000),
    inputSchema: JsonSchemaObject,
  })
  .strict()
  .describe("A tool executed by the client's backend: the session pauses until `user.custom_tool_result`");

/** A misspelled built-in tool (`"webfetch"`) is answered with the valid names, not zod's bare "Invalid input". */
export const AgentToolSchema = z.union([z.enum(BUILTIN_TOOL_NAMES), CustomToolSchema], {
  errorMap: (issue, ctx) =>
    issue.code === "invalid_union" && typeof ctx.data === "string"
      ? {
          message: `unknown built-in tool "${ctx.data}"; built-in tools: ${BUILTIN_TOOL_NAMES.join(", ")} (or a custom tool object)`,
        }
      : { message: ctx.defaultError },
});

export const ToolPolicySchema = z.enum(["always_allow", "always_ask"]);

/** Keys are validated for form only; MCP tools are `<server>__<tool>`, roster tools `delegate_to_<role>`. */
export const ToolPermissionsSchema = z.record(
  z.string().regex(/^[a-zA-Z0-9_.-]{1,160}$/, "tool name: letters, digits, `_`, `-`, `.`"),
  ToolPolicySchema,
);

export type CustomTool = z.infer<typeof CustomToolSchema>;
export type AgentTool = z.infer<typeof AgentToolSchema>;
export type ToolPolicy = z.infer<typeof ToolPolicySchema>;
