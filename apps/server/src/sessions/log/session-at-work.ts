import { SESSION_TURN_KIND } from "./turn-job.js";

type Queryable = { query<R>(sql: string, values: unknown[]): Promise<{ rows: R[] }> };

/**
 * Whether a session is at work: a turn is running (`status` = `running`), or a turn is requested and not yet started
 * (its job waits unclaimed). A session idle with `requires_action` waits on its user, not at work. False for a session
 * that no longer exists.
 */
export async function sessionAtWork(db: Queryable, sessionId: string): Promise<boolean> {
  const { rows } = await db.query<{ atWork: boolean }>(
    `SELECT s."status" = 'running' OR EXISTS (
       SELECT 1 FROM jobs j WHERE j."kind" = $2 AND j."key" = s."id" AND j."leaseOwner" IS NULL
     ) AS "atWork"
     FROM sessions s WHERE s."id" = $1`,
    [sessionId, SESSION_TURN_KIND],
  );
  return rows[0]?.atWork === true;
}
