import type { Agent, CursorPage, ListAgentsQuery } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import { escapeLike } from "../http/list-filters.js";
import { decodeCursor, decodeNumberCursor, pageOf } from "../http/pagination.js";
import { type HeadAtVersion, type Queryable, readAgent, readAgentPage, readVersionPage } from "./agent-read-store.js";
import { type AgentHead, agentNotFound } from "./agent-store.js";
import { storedHeaderKeys } from "./mcp-credentials.js";
import { toAgent } from "./serialize.js";
import {
  type AgentSnapshot,
  loadSnapshot,
  readableConfig,
  snapshotOfText,
  type VersionReader,
} from "./version-snapshots.js";

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

/** A head with its version as reads send it: shaped by the contract, so that the routes skip response validation. */
function recordOf(row: HeadAtVersion): Agent {
  if (row.version === null || row.config === null || row.publishedAt === null)
    throw new Error(`Agent ${row.id}: no version was read with the head`);
  const snapshot = snapshotOfText(row.id, row.version, row.config, row.publishedAt);
  return toAgent(row, snapshot, new Map(Object.entries(row.headerKeys ?? {})), readableConfig(snapshot));
}

/** The agent at its current version or at `version`: head, version and stored header names in one statement. */
export async function getAgent(pool: Queryable, projectId: string, agentId: string, version?: number): Promise<Agent> {
  const row = await readAgent(pool, projectId, agentId, version);
  if (!row) throw agentNotFound(agentId);
  if (row.version === null) throw versionNotFound(agentId, version ?? row.currentVersion);
  return recordOf(row);
}

export async function listAgents(
  pool: Queryable,
  projectId: string,
  query: ListAgentsQuery,
): Promise<CursorPage<Agent>> {
  const filters = { status: query.status, name: query.name };
  const before = decodeCursor(query.cursor, filters);
  const rows = await readAgentPage(
    pool,
    projectId,
    { status: query.status, namePattern: query.name ? `%${escapeLike(query.name)}%` : undefined, before },
    query.limit + 1,
  );
  return pageOf(rows, query.limit, filters, (row) => row.id, recordOf);
}

export async function listAgentVersions(
  pool: Queryable,
  projectId: string,
  agentId: string,
  query: { limit: number; cursor?: string },
): Promise<CursorPage<Agent>> {
  const before = decodeNumberCursor(query.cursor, {});
  const rows = await readVersionPage(pool, projectId, agentId, before, query.limit + 1);
  if (rows.length === 0) throw agentNotFound(agentId);
  // The agent is there but has no version left below the cursor: its one row carries none.
  const versions = rows[0]!.version === null ? [] : rows;
  return pageOf(versions, query.limit, {}, (row) => row.version!, recordOf);
}
