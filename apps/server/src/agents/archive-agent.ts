import type { Agent } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { type AgentHead, agentNotFound, HEAD_COLUMNS } from "./agent-store.js";
import { agentRecord } from "./read-agents.js";

/**
 * Archiving is idempotent (the first archive time is kept). An archived agent refuses writes and new roster links;
 * roster entries already pinned to it keep working, and duplicating it is the way to get an active copy.
 */
export async function archiveAgent(prisma: Database, projectId: string, agentId: string): Promise<Agent> {
  const rows = await prisma.$queryRaw<AgentHead[]>`
    UPDATE agents
    SET "archivedAt" = COALESCE("archivedAt", now()),
        "updatedAt" = CASE WHEN "archivedAt" IS NULL THEN now() ELSE "updatedAt" END
    WHERE "id" = ${agentId} AND "projectId" = ${projectId}
    RETURNING ${HEAD_COLUMNS}`;
  if (rows.length === 0) throw agentNotFound(agentId);
  return agentRecord(prisma, rows[0]!);
}
