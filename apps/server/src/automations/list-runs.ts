import type { AutomationRun, CursorPage } from "@agent-platform/contract";
import type pg from "pg";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { requireAutomation } from "./automation-store.js";

interface RunRow {
  id: string;
  automationId: string;
  sessionId: string | null;
  triggerKind: AutomationRun["triggerKind"];
  scheduledFor: Date | null;
  status: AutomationRun["status"];
  error: string | null;
  createdAt: Date;
  sessionStatus: AutomationRun["sessionStatus"];
  sessionStopReason: AutomationRun["sessionStopReason"];
  sessionTitle: string | null;
}

function toRun(row: RunRow): AutomationRun {
  return {
    id: row.id,
    automationId: row.automationId,
    sessionId: row.sessionId,
    triggerKind: row.triggerKind,
    scheduledFor: row.scheduledFor?.toISOString() ?? null,
    status: row.status,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sessionStatus: row.sessionStatus,
    sessionStopReason: row.sessionStopReason,
    sessionTitle: row.sessionTitle,
  };
}

/**
 * The automation's runs, newest first, each with its session's status, stop reason and title read live: one query
 * (a join on the sessions' primary key), run together with the automation's existence check.
 */
export async function listAutomationRuns(
  pool: pg.Pool,
  projectId: string,
  automationId: string,
  query: { limit: number; cursor?: string },
): Promise<CursorPage<AutomationRun>> {
  const filters = { projectId, automationId };
  const after = decodeCursor(query.cursor, filters);
  const [, { rows }] = await Promise.all([
    requireAutomation(pool, projectId, automationId),
    pool.query<RunRow>(
      `SELECT r."id", r."automationId", r."sessionId", r."triggerKind", r."scheduledFor", r."status", r."error",
         r."createdAt", s."status" AS "sessionStatus", s."stopReason" AS "sessionStopReason",
         s."title" AS "sessionTitle"
       FROM automation_runs r
       LEFT JOIN sessions s ON s."id" = r."sessionId"
       WHERE r."automationId" = $1 AND r."projectId" = $2 AND ($3::text IS NULL OR r."id" < $3)
       ORDER BY r."id" DESC LIMIT $4`,
      [automationId, projectId, after ?? null, query.limit + 1],
    ),
  ]);
  return pageOf(rows, query.limit, filters, (r) => r.id, toRun);
}
