export const MCP_TOOL_SEPARATOR = "__";

/** The name a model sees for an MCP tool: `<server>__<tool>`. */
export function qualifyMcpToolName(serverName: string, toolName: string): string {
  return `${serverName}${MCP_TOOL_SEPARATOR}${toolName}`;
}

/**
 * Splits a qualified name using the known server names (longest match first), so that tool names
 * containing the separator still resolve.
 */
export function splitMcpToolName(
  qualifiedName: string,
  serverNames: Iterable<string>,
): { serverName: string; toolName: string } | null {
  const candidates = [...serverNames].sort((a, b) => b.length - a.length);
  for (const serverName of candidates) {
    const prefix = `${serverName}${MCP_TOOL_SEPARATOR}`;
    if (qualifiedName.startsWith(prefix) && qualifiedName.length > prefix.length) {
      return { serverName, toolName: qualifiedName.slice(prefix.length) };
    }
  }
  return null;
}
