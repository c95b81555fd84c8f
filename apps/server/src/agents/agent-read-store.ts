import type pg from "pg";
import type { ArchivedStatus } from "../http/list-filters.js";
import { prepared } from "../lib/prepared.js";
import type { AgentHead } from "./agent-store.js";

export type Queryable = Pick<pg.Pool, "query">;

/**
 * A head with one of its versions and the header names stored for its MCP servers, read in one statement. `config` is
 * the version's JSON text (parsed only when the snapshot is not cached yet); the version's columns are null when the
 * version does not exist.
 */
export interface HeadAtVersion extends AgentHead {
  version: number | null;
  config: string | null;
  publishedAt: Date | null;
  headerKeys: Record<string, string[]> | null;
}

const HEAD = `a."id", a."projectId", a."currentVersion", a."createdAt", a."updatedAt", a."archivedAt"`;
const VERSION = `v."version", v."config"::text AS "config", v."createdAt" AS "publishedAt"`;
/**
 * Header names by server name, null when none is stored. `agentId` is the agent's placeholder in one-agent reads (the
 * subquery is then evaluated once), `a."id"` in lists.
 */
const headerKeys = (agentId: string) =>
  `(SELECT json_object_agg(c."serverName", c."headerKeys") FROM agent_mcp_credentials c WHERE c."agentId" = ${agentId})
     AS "headerKeys"`;

function statement() {
  const values: unknown[] = [];
  return { values, at: (value: unknown) => `$${values.push(value)}` };
}

/** The agent in the project at `version` (the current one when undefined); undefined when the agent is not there. */
export async function readAgent(
  db: Queryable,
  projectId: string,
  agentId: string,
  version: number | undefined,
): Promise<HeadAtVersion | undefined> {
  const { values, at } = statement();
  const id = at(agentId);
  const { rows } = await db.query<HeadAtVersion>(
    prepared(
      `SELECT ${HEAD}, ${VERSION}, ${headerKeys(id)}
       FROM agents a
       LEFT JOIN agent_versions v
         ON v."agentId" = a."id" AND v."version" = coalesce(${at(version ?? null)}::int, a."currentVersion")
       WHERE a."id" = ${id} AND a."projectId" = ${at(projectId)}`,
      values,
    ),
  );
  return rows[0];
}

export interface AgentListFilter {
  status: ArchivedStatus;
  /** A LIKE pattern, its wildcards already escaped. */
  namePattern?: string;
  /** Ids below this one (the cursor). */
  before?: string;
}

/** Agents of the project at their current version, newest first, at most `take`. */
export async function readAgentPage(
  db: Queryable,
  projectId: string,
  filter: AgentListFilter,
  take: number,
): Promise<HeadAtVersion[]> {
  const { values, at } = statement();
  const where = [`a."projectId" = ${at(projectId)}`];
  if (filter.status !== "all") where.push(`a."archivedAt" IS ${filter.status === "active" ? "" : "NOT "}NULL`);
  if (filter.namePattern !== undefined) where.push(`a."name" ILIKE ${at(filter.namePattern)}`);
  if (filter.before !== undefined) where.push(`a."id" < ${at(filter.before)}`);
  const { rows } = await db.query<HeadAtVersion>(
    prepared(
      `SELECT ${HEAD}, ${VERSION}, ${headerKeys(`a."id"`)}
       FROM agents a
       LEFT JOIN agent_versions v ON v."agentId" = a."id" AND v."version" = a."currentVersion"
       WHERE ${where.join(" AND ")}
       ORDER BY a."id" DESC
       LIMIT ${at(take)}`,
      values,
    ),
  );
  return rows;
}

/**
 * Versions of the agent in the project, newest first, below `before` when given, at most `take`: one row per version
 * with the head repeated, or a single row without a version when none is left. Empty when the agent is not there.
 */
export async function readVersionPage(
  db: Queryable,
  projectId: string,
  agentId: string,
  before: number | undefined,
  take: number,
): Promise<HeadAtVersion[]> {
  const { values, at } = statement();
  const id = at(agentId);
  const below = before === undefined ? "" : `AND w."version" < ${at(before)}`;
  const { rows } = await db.query<HeadAtVersion>(
    prepared(
      `SELECT ${HEAD}, ${VERSION}, ${headerKeys(id)}
       FROM agents a
       LEFT JOIN LATERAL (
         SELECT w."version", w."config", w."createdAt" FROM agent_versions w
         WHERE w."agentId" = a."id" ${below}
         ORDER BY w."version" DESC
         LIMIT ${at(take)}
       ) v ON true
       WHERE a."id" = ${id} AND a."projectId" = ${at(projectId)}
       ORDER BY v."version" DESC`,
      values,
    ),
  );
  return rows;
}
