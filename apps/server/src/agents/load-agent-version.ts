import type { AgentConfig } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { agentNotFound } from "./agent-store.js";
import { requireSnapshot } from "./read-agents.js";
import { withStoredHeaderKeys } from "./serialize.js";

export interface LoadedAgentVersion {
  agentId: string;
  version: number;
  /** The immutable configuration of that version; `mcpServers[].headerKeys` are the names stored today. */
  config: AgentConfig;
  /** Archiving does not change versions: callers decide what an archived agent may still do. */
  archivedAt: Date | null;
}

/**
 * One version of an agent of the project, for sessions, automations, experiments and delegation: the current version
 * when `version` is omitted. Versions are immutable and served from an in-process cache (frozen objects: do not
 * mutate). Throws 404 `agent.not_found` (missing or in another project) or `agent.version_not_found`. Header values
 * are not part of it: `loadMcpHeaders` opens them when connecting.
 */
export async function loadAgentVersion(
  ctx: AppContext,
  projectId: string,
  agentId: string,
  version?: number,
): Promise<LoadedAgentVersion> {
  // The head and the stored header names in one round trip (this runs for every session created and every turn).
  const { rows } = await ctx.db.pool.query<{
    currentVersion: number;
    archivedAt: Date | null;
    headerKeys: Record<string, string[]> | null;
  }>(
    `SELECT a."currentVersion", a."archivedAt",
       (SELECT json_object_agg(c."serverName", c."headerKeys") FROM agent_mcp_credentials c WHERE c."agentId" = a."id")
         AS "headerKeys"
     FROM agents a WHERE a."id" = $1 AND a."projectId" = $2`,
    [agentId, projectId],
  );
  const head = rows[0];
  if (!head) throw agentNotFound(agentId);
  const headerKeys = new Map(Object.entries(head.headerKeys ?? {}));
  const snapshot = await requireSnapshot(ctx.db.prisma, agentId, version ?? head.currentVersion);
  return {
    agentId,
    version: snapshot.version,
    config: withStoredHeaderKeys(snapshot.config, headerKeys),
    archivedAt: head.archivedAt,
  };
}
