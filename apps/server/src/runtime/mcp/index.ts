export type { McpTransportKind } from "./connect-mcp-server.js";
export {
  type McpConnectionOptions,
  type McpConnectionSet,
  type McpServerConfig,
  type McpServerFailure,
  type McpToolDescriptor,
  type McpToolList,
  type McpToolResult,
  openMcpConnections,
  type ResolveMcpHeaders,
} from "./mcp-connections.js";
export { MCP_TOOL_SEPARATOR, qualifyMcpToolName, splitMcpToolName } from "./mcp-tool-names.js";
export { MissingVaultSecret, resolveHeaderValues, sessionMcpHeaders } from "./session-mcp-headers.js";
export { storeMcpResult } from "./store-mcp-result.js";
