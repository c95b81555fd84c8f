import type { AgentConfig, ToolPolicy } from "@agent-platform/contract";
import type { ModelToolDefinition } from "../../models/index.js";
import type { NewEvent } from "../../sessions/index.js";
import { type McpConnectionSet, qualifyMcpToolName } from "../mcp/index.js";
import type { RuntimeTool, ToolResult, ToolRunContext } from "../tools/types.js";
import { EV } from "./events.js";

/** A tool offered to the model in one pass, with its effective permission policy. */
export interface LoopTool extends RuntimeTool {
  policy: ToolPolicy;
  /** MCP tools: server and the tool's own name. */
  serverName?: string;
  toolName?: string;
}

export interface Toolset {
  tools: Map<string, LoopTool>;
  definitions: ModelToolDefinition[];
  /** Servers whose tools could not be listed (their tools are missing from this pass). */
  mcpFailures: { serverName: string; message: string }[];
}

/**
 * Default policy by origin (spec, Tool permissions): built-in / server-side tools (built-in, serverless, delegation)
 * `always_allow`, MCP tools `always_ask`; `toolPermissions[name]` overrides. Custom tools always pause for the client.
 */
export function policyOf(agent: AgentConfig, tool: Pick<RuntimeTool, "name" | "origin">): ToolPolicy {
  return agent.toolPermissions[tool.name] ?? (tool.origin === "mcp" ? "always_ask" : "always_allow");
}

export function customTools(agent: AgentConfig): RuntimeTool[] {
  return agent.tools.flatMap((entry) =>
    typeof entry === "string"
      ? []
      : [
          {
            name: entry.name,
            description: entry.description,
            inputSchema: entry.inputSchema,
            origin: "custom" as const,
            // Nothing is known about what the client's backend does with it.
            readOnly: false,
          },
        ],
  );
}

/** The MCP tools of a connection set as runtime tools (`<server>__<tool>`). */
export async function mcpTools(
  connections: McpConnectionSet,
  signal: AbortSignal,
): Promise<{ tools: RuntimeTool[]; failures: Toolset["mcpFailures"] }> {
  const list = await connections.listTools(signal);
  const tools = list.tools.map((descriptor): RuntimeTool & { serverName: string; toolName: string } => ({
    name: descriptor.name,
    description: descriptor.description,
    inputSchema: descriptor.inputSchema,
    origin: "mcp",
    readOnly: descriptor.readOnly,
    serverName: descriptor.serverName,
    toolName: descriptor.toolName,
    execute: (input: unknown, run: ToolRunContext): Promise<ToolResult> =>
      connections.callTool(qualifyMcpToolName(descriptor.serverName, descriptor.toolName), input, run.signal),
  }));
  return { tools, failures: list.failures };
}

/**
 * Assembles the tools of a pass. Names are unique: the first origin wins in the order given (built-in and serverless,
 * MCP, custom, delegation). With read confinement only read-only tools of every origin remain.
 */
export function assembleToolset(
  agent: AgentConfig,
  groups: RuntimeTool[][],
  options: { readonly: boolean; mcpFailures?: Toolset["mcpFailures"] },
): Toolset {
  const tools = new Map<string, LoopTool>();
  for (const group of groups) {
    for (const tool of group) {
      if (tools.has(tool.name)) continue;
      const usable = options.readonly && !tool.readOnly ? tool.readOnlyView : tool;
      if (!usable) continue;
      tools.set(tool.name, { ...usable, policy: policyOf(agent, usable) });
    }
  }
  const definitions = [...tools.values()].map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: normaliseSchema(t.inputSchema),
  }));
  return { tools, definitions, mcpFailures: options.mcpFailures ?? [] };
}

/** Providers want an object schema; an empty schema means "no input". */
function normaliseSchema(schema: Record<string, unknown>): Record<string, unknown> {
  if (schema.type === undefined) return { type: "object", properties: {}, ...schema };
  return schema;
}

/** The tool-use entry for a call of the model: MCP and custom tools have their own types; unknown names stay plain. */
export function toolUseEvent(tools: Toolset, name: string, input: unknown): NewEvent {
  const tool = tools.tools.get(name);
  const confirm =
    tool && tool.origin !== "custom" && tool.policy === "always_ask" ? { requiresConfirmation: true } : {};
  if (tool?.origin === "mcp") {
    return { type: EV.mcpToolUse, payload: { serverName: tool.serverName, name: tool.toolName, input, ...confirm } };
  }
  if (tool?.origin === "custom") return { type: EV.customToolUse, payload: { name, input } };
  return { type: EV.toolUse, payload: { name, input, ...confirm } };
}
