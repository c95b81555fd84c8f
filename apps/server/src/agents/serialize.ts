import type { Agent, AgentConfig } from "@agent-platform/contract";
import type { AgentHead } from "./agent-store.js";
import type { AgentSnapshot } from "./version-snapshots.js";

/**
 * MCP servers as reads show them: `headerKeys` are the names stored today in the sealed store (what the version would
 * run with: restore reapplies today's credentials), never the values.
 */
export function withStoredHeaderKeys(config: AgentConfig, headerKeys: ReadonlyMap<string, string[]>): AgentConfig {
  return {
    ...config,
    mcpServers: config.mcpServers.map(({ name, url }) => ({
      name,
      url,
      headerKeys: [...(headerKeys.get(name) ?? [])],
    })),
  };
}

/**
 * The agent record at one version. `updatedAt` is the last write for the current version, else the publish time.
 * `config`: the snapshot's, or its `readableConfig` for a route that skips response validation.
 */
export function toAgent(
  head: AgentHead,
  snapshot: AgentSnapshot,
  headerKeys: ReadonlyMap<string, string[]>,
  config: AgentConfig = snapshot.config,
): Agent {
  const isCurrent = snapshot.version === head.currentVersion;
  return {
    id: head.id,
    projectId: head.projectId,
    version: snapshot.version,
    ...withStoredHeaderKeys(config, headerKeys),
    createdAt: head.createdAt.toISOString(),
    updatedAt: (isCurrent ? head.updatedAt : snapshot.publishedAt).toISOString(),
    archivedAt: head.archivedAt?.toISOString() ?? null,
  };
}

/** The header names a snapshot was published with (right after a write they are the stored ones). */
export function headerKeysOfConfig(config: AgentConfig): Map<string, string[]> {
  return new Map(config.mcpServers.map((server) => [server.name, server.headerKeys]));
}
