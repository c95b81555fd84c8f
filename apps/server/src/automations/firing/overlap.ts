import type pg from "pg";
import { sessionAtWork } from "../../sessions/index.js";

/** The session of the automation's latest firing that created one, when it is still at work; otherwise null. */
export async function previousSessionAtWork(db: Pick<pg.Pool, "query">, automationId: string): Promise<string | null> {
  const { rows } = await db.query<{ sessionId: string }>(
    `SELECT "sessionId" FROM automation_runs WHERE "automationId" = $1 AND "sessionId" IS NOT NULL
     ORDER BY "id" DESC LIMIT 1`,
    [automationId],
  );
  const sessionId = rows[0]?.sessionId;
  return sessionId && (await sessionAtWork(db, sessionId)) ? sessionId : null;
}
