import type pg from "pg";
import { notFound } from "../http/app-error.js";
import { AUTOMATION_COLUMNS, type AutomationRow } from "./automation-row.js";

type Queryable = Pick<pg.Pool, "query">;

/** The automation of the project, or null (missing, or another project's). `lock` takes the row `FOR UPDATE`. */
export async function findAutomation(
  db: Queryable,
  projectId: string,
  id: string,
  lock?: "update" | "share",
): Promise<AutomationRow | null> {
  const { rows } = await db.query<AutomationRow>(
    `SELECT ${AUTOMATION_COLUMNS} FROM automations WHERE "id" = $1 AND "projectId" = $2
     ${lock === "update" ? "FOR UPDATE" : lock === "share" ? "FOR SHARE" : ""}`,
    [id, projectId],
  );
  return rows[0] ?? null;
}

/** As `findAutomation`, with 404 `automation.not_found` when there is none. */
export async function requireAutomation(
  db: Queryable,
  projectId: string,
  id: string,
  lock?: "update" | "share",
): Promise<AutomationRow> {
  const row = await findAutomation(db, projectId, id, lock);
  if (!row) throw notFound("automation.not_found", "Automation", id);
  return row;
}

/** An automation by id alone, for its jobs (their keys name it); `lock` as in `findAutomation`. */
export async function loadAutomation(
  db: Queryable,
  id: string,
  lock?: "update" | "share",
): Promise<AutomationRow | null> {
  const { rows } = await db.query<AutomationRow>(
    `SELECT ${AUTOMATION_COLUMNS} FROM automations WHERE "id" = $1
     ${lock === "update" ? "FOR UPDATE" : lock === "share" ? "FOR SHARE" : ""}`,
    [id],
  );
  return rows[0] ?? null;
}
