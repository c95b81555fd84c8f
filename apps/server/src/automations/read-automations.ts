import type { Automation, CursorPage } from "@agent-platform/contract";
import type pg from "pg";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { AUTOMATION_COLUMNS, type AutomationRow, toAutomation } from "./automation-row.js";
import { requireAutomation } from "./automation-store.js";

export async function getAutomation(pool: pg.Pool, projectId: string, id: string): Promise<Automation> {
  return toAutomation(await requireAutomation(pool, projectId, id));
}

/** The project's automations, newest first. */
export async function listAutomations(
  pool: pg.Pool,
  projectId: string,
  query: { limit: number; cursor?: string },
): Promise<CursorPage<Automation>> {
  const filters = { projectId };
  const after = decodeCursor(query.cursor, filters);
  const { rows } = await pool.query<AutomationRow>(
    `SELECT ${AUTOMATION_COLUMNS} FROM automations
     WHERE "projectId" = $1 AND ($2::text IS NULL OR "id" < $2)
     ORDER BY "id" DESC LIMIT $3`,
    [projectId, after ?? null, query.limit + 1],
  );
  return pageOf(rows, query.limit, filters, (r) => r.id, toAutomation);
}
