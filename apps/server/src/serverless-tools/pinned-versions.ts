import type pg from "pg";

export interface PinnedServerlessTool {
  toolId: string;
  name: string;
  version: number;
  description: string;
  inputSchema: Record<string, unknown>;
  url: string;
  vaultId: string | null;
}

/**
 * The pinned versions of the agent's serverless tools, in one query, scoped to the session's project. Pins whose
 * version no longer exists are absent from the result (archived tools keep working: their versions still exist).
 */
export async function loadPinnedServerlessTools(
  pool: Pick<pg.Pool, "query">,
  projectId: string,
  refs: readonly { toolId: string; version: number }[],
): Promise<PinnedServerlessTool[]> {
  if (refs.length === 0) return [];
  const { rows } = await pool.query<PinnedServerlessTool>(
    `SELECT t."id" AS "toolId", t."name", v."version", v."description", v."inputSchema", v."url", v."vaultId"
       FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS r("toolId", "version", "position")
       JOIN serverless_tool_versions v ON v."toolId" = r."toolId" AND v."version" = r."version"
       JOIN serverless_tools t ON t."id" = v."toolId"
      WHERE t."projectId" = $1
      ORDER BY r."position"`,
    [projectId, refs.map((r) => r.toolId), refs.map((r) => r.version)],
  );
  return rows;
}
