import type { ServerlessTool, ServerlessToolVersion } from "@agent-platform/contract";
import type {
  ServerlessTool as ServerlessToolRow,
  ServerlessToolVersion as ServerlessToolVersionRow,
} from "@agent-platform/db";

export function toServerlessToolVersion(row: ServerlessToolVersionRow): ServerlessToolVersion {
  return {
    toolId: row.toolId,
    version: row.version,
    description: row.description,
    inputSchema: row.inputSchema as Record<string, unknown>,
    url: row.url,
    vaultId: row.vaultId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The tool as of one of its versions (the current one unless another was asked for). */
export function toServerlessTool(tool: ServerlessToolRow, version: ServerlessToolVersionRow): ServerlessTool {
  return {
    id: tool.id,
    projectId: tool.projectId,
    name: tool.name,
    version: version.version,
    currentVersion: tool.currentVersion,
    description: version.description,
    inputSchema: version.inputSchema as Record<string, unknown>,
    url: version.url,
    vaultId: version.vaultId,
    createdAt: tool.createdAt.toISOString(),
    updatedAt: tool.updatedAt.toISOString(),
    archivedAt: tool.archivedAt?.toISOString() ?? null,
  };
}
