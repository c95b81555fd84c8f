import type { ProjectUsage } from "@agent-platform/contract";
import type pg from "pg";

/**
 * The model calls of a project's sessions over the last `days` UTC days, summed by day, agent and model, from the
 * log's `agent.usage` entries and the summarising calls of `session.compaction` entries (the log is the only record
 * with the model of each call; budgets' counters have no model). Only the sessions written to since the first day are
 * read (`updatedAt`), and of their logs only the usage and compaction entries of the window are summed: the cost grows
 * with the entries of the sessions active in the window (docs/console.md, "Usage").
 */
const USAGE_SQL = `
SELECT to_char(e."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "date", s."agentId",
  COALESCE(u."model", '') AS "model", count(*)::int AS "calls",
  COALESCE(sum(u."inputTokens"), 0)::text AS "inputTokens", COALESCE(sum(u."outputTokens"), 0)::text AS "outputTokens",
  COALESCE(sum(u."costUsd"), 0)::float8 AS "costUsd", count(*) FILTER (WHERE u."costUsd" IS NULL)::int AS "unpricedCalls"
FROM sessions s
JOIN session_events e ON e."sessionId" = s."id"
CROSS JOIN LATERAL (
  SELECT CASE WHEN e."type" = 'agent.usage' THEN e."payload" ELSE e."payload"->'usage' END AS "u"
) p
CROSS JOIN LATERAL (
  SELECT p."u"->>'model' AS "model", (p."u"->>'inputTokens')::bigint AS "inputTokens",
    (p."u"->>'outputTokens')::bigint AS "outputTokens", (p."u"->>'costUsd')::numeric AS "costUsd"
) u
WHERE s."projectId" = $1 AND s."updatedAt" >= $2
  AND e."type" IN ('agent.usage', 'session.compaction') AND e."createdAt" >= $2
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3`;

interface UsageRowText {
  date: string;
  agentId: string;
  model: string;
  calls: number;
  inputTokens: string;
  outputTokens: string;
  costUsd: number;
  unpricedCalls: number;
}

export async function projectUsageByDay(
  pool: Pick<pg.Pool, "query">,
  projectId: string,
  days: number,
  now: Date = new Date(),
): Promise<ProjectUsage> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today - (days - 1) * 86_400_000);
  const { rows } = await pool.query<UsageRowText>(USAGE_SQL, [projectId, first]);
  return {
    from: first.toISOString().slice(0, 10),
    to: new Date(today).toISOString().slice(0, 10),
    data: rows.map((row) => ({
      ...row,
      inputTokens: Number(row.inputTokens),
      outputTokens: Number(row.outputTokens),
      costUsd: Math.round(row.costUsd * 1e6) / 1e6,
    })),
  };
}
