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
  rememberCurrentVersion(agentId, head.currentVersion);
  const headerKeys = new Map(Object.entries(head.headerKeys ?? {}));
  const snapshot = await requireSnapshot(ctx.db.prisma, agentId, version ?? head.currentVersion);
  return {
    agentId,
    version: snapshot.version,
    config: withStoredHeaderKeys(snapshot.config, headerKeys),
    archivedAt: head.archivedAt,
  };
}

/** Agents remembered at most; past it the guesses start over. */
const MAX_GUESSES = 50_000;
const currentVersions = new Map<string, number>();

function rememberCurrentVersion(agentId: string, version: number): void {
  if (currentVersions.size >= MAX_GUESSES) currentVersions.clear();
  currentVersions.set(agentId, version);
}

/**
 * The current version this process last saw for the agent: a guess (another process may have made a new version since)
 * for a caller that checks it in the statement that relies on it, and reads the head when the check fails.
 */
export function guessCurrentVersion(agentId: string): number | undefined {
  return currentVersions.get(agentId);
}

/**
 * The execution defaults of one version (immutable: from the in-process cache), without reading or checking the
 * agent's head: for a caller that checks the head in the statement that uses them.
 */
/** A version's configuration (cached like `versionDefaults`). */
export async function versionConfig(ctx: AppContext, agentId: string, version: number): Promise<AgentConfig> {
  return (await requireSnapshot(ctx.db.prisma, agentId, version)).config;
}

export async function versionDefaults(
  ctx: AppContext,
  agentId: string,
  version: number,
): Promise<AgentConfig["defaults"]> {
  return (await requireSnapshot(ctx.db.prisma, agentId, version)).config.defaults;
}
