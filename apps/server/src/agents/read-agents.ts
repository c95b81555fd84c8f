import type { Agent, CursorPage, ListAgentsQuery } from "@agent-platform/contract";
import type { Database, Prisma } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import { archivedWhere, nameContains } from "../http/list-filters.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { type AgentHead, requireHead } from "./agent-store.js";
import { headerKeysByAgent, storedHeaderKeys } from "./mcp-credentials.js";
import { toAgent } from "./serialize.js";
import {
  type AgentSnapshot,
  loadSnapshot,
  loadSnapshots,
  snapshotKey,
  snapshotOfRow,
  type VersionReader,
} from "./version-snapshots.js";

const HEAD_FIELDS = {
  id: true,
  projectId: true,
  currentVersion: true,
  createdAt: true,
  updatedAt: true,
  archivedAt: true,
} as const;

export function versionNotFound(agentId: string, version: number): AppError {
  return new AppError("agent.version_not_found", `Agent ${agentId} has no version ${version}`);
}

/** A version of an agent already known to be in the project; 404 `agent.version_not_found` when it does not exist. */
export async function requireSnapshot(prisma: VersionReader, agentId: string, version: number): Promise<AgentSnapshot> {
  const snapshot = await loadSnapshot(prisma, agentId, version);
  if (!snapshot) throw versionNotFound(agentId, version);
  return snapshot;
}

/** The record of a head at one of its versions (the current one by default). */
export async function agentRecord(prisma: Database, head: AgentHead, version = head.currentVersion): Promise<Agent> {
  const [snapshot, keys] = await Promise.all([
    requireSnapshot(prisma, head.id, version),
    storedHeaderKeys(prisma, head.id),
  ]);
  return toAgent(head, snapshot, keys);
}

export async function getAgent(prisma: Database, projectId: string, agentId: string, version?: number) {
  return agentRecord(prisma, await requireHead(prisma, projectId, agentId), version);
}

export async function listAgents(
  prisma: Database,
  projectId: string,
  query: ListAgentsQuery,
): Promise<CursorPage<Agent>> {
  const filters = { status: query.status, name: query.name };
  const after = decodeCursor(query.cursor, filters);
  const where: Prisma.AgentWhereInput = {
    projectId,
    ...archivedWhere(query.status),
    ...nameContains(query.name),
    ...(after ? { id: { lt: after } } : {}),
  };
  const heads = await prisma.agent.findMany({
    where,
    orderBy: { id: "desc" },
    take: query.limit + 1,
    select: HEAD_FIELDS,
  });
  const page = heads.slice(0, query.limit);
  const [snapshots, keys] = await Promise.all([
    loadSnapshots(
      prisma,
      page.map((h) => ({ agentId: h.id, version: h.currentVersion })),
    ),
    headerKeysByAgent(
      prisma,
      page.map((h) => h.id),
    ),
  ]);
  return pageOf(
    heads,
    query.limit,
    filters,
    (h) => h.id,
    (h) => toAgent(h, snapshots.get(snapshotKey(h.id, h.currentVersion))!, keys.get(h.id) ?? new Map()),
  );
}

export async function listAgentVersions(
  prisma: Database,
  projectId: string,
  agentId: string,
  query: { limit: number; cursor?: string },
): Promise<CursorPage<Agent>> {
  const head = await requireHead(prisma, projectId, agentId);
  const after = decodeCursor<number>(query.cursor, {});
  const rows = await prisma.agentVersion.findMany({
    where: { agentId, ...(after !== undefined ? { version: { lt: after } } : {}) },
    orderBy: { version: "desc" },
    take: query.limit + 1,
  });
  const keys = await storedHeaderKeys(prisma, agentId);
  return pageOf(
    rows,
    query.limit,
    {},
    (r) => r.version,
    (r) => toAgent(head, snapshotOfRow(r), keys),
  );
}
