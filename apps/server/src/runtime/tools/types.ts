import type { AgentConfig, McpToolResultContent } from "@agent-platform/contract";
import type { AppContext } from "../../context.js";

export type ToolOrigin = "builtin" | "mcp" | "serverless" | "custom" | "delegation";

export interface ToolResult {
  /** Text the model sees. */
  content: string;
  isError: boolean;
  /**
   * The result's parts in order when it holds more than text (an MCP result with images, audio or binary resources,
   * stored as artifacts): the log entry's `content`. `content` stays its text view.
   */
  parts?: McpToolResultContent;
}

export interface MemoryMount {
  memoryStoreId: string;
  memoryStoreName: string;
  mode: "read-only" | "read-write";
}

/** What a running turn knows about its session; resolved at session creation and never re-resolved. */
export interface SessionRuntimeInfo {
  id: string;
  projectId: string;
  workspaceId: string;
  agentId: string;
  agentVersion: number;
  environmentId: string | null;
  vaultIds: string[];
  resources: MemoryMount[];
}

/** Just the runtime fields of a session row (which may carry more). */
export function sessionRuntimeInfo(row: SessionRuntimeInfo): SessionRuntimeInfo {
  return {
    id: row.id,
    projectId: row.projectId,
    workspaceId: row.workspaceId,
    agentId: row.agentId,
    agentVersion: row.agentVersion,
    environmentId: row.environmentId,
    vaultIds: row.vaultIds,
    resources: row.resources,
  };
}

export interface ToolRunContext {
  ctx: AppContext;
  session: SessionRuntimeInfo;
  agent: AgentConfig;
  /** Aborted on `user.interrupt` (and on shutdown): stop promptly. */
  signal: AbortSignal;
  /** Id of the tool-use event; the `toolUseId` of its result. */
  toolUseId: string;
}

/** A tool the model can call. Custom tools have no `execute`: the client runs them (`user.custom_tool_result`). */
export interface RuntimeTool {
  name: string;
  description: string;
  /** JSON Schema of the input (an object schema). */
  inputSchema: Record<string, unknown>;
  origin: ToolOrigin;
  /** Changes nothing outside the session; read confinement keeps only these. */
  readOnly: boolean;
  /** For a tool that is not read-only but has read-only uses: the tool reduced to them, kept under read confinement. */
  readOnlyView?: RuntimeTool;
  execute?(input: unknown, run: ToolRunContext): Promise<ToolResult>;
}
