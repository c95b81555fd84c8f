import type { AgentConfig } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { requireHead } from "./agent-store.js";
import { storedHeaderKeys } from "./mcp-credentials.js";
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
  const prisma = ctx.db.prisma;
  const [head, headerKeys] = await Promise.all([
    requireHead(prisma, projectId, agentId),
    storedHeaderKeys(prisma, agentId),
  ]);
  const snapshot = await requireSnapshot(prisma, agentId, version ?? head.currentVersion);
  return {
    agentId,
    version: snapshot.version,
    config: withStoredHeaderKeys(snapshot.config, headerKeys),
    archivedAt: head.archivedAt,
  };
}
