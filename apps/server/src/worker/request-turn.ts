import type pg from "pg";
import type { AppContext } from "../context.js";

/** Channel a worker LISTENs on; the payload is the session id. */
export const SESSION_WORK_CHANNEL = "session_work";

/**
 * Records that a session has work for the agent loop (new user events) and wakes the workers. Durable: the request is a
 * row of `session_runs`, so it survives a restart and is claimed by exactly one worker at a time. Call it after the
 * user events are appended, or inside the transaction that appends them (pass its client as `db`): the NOTIFY is then
 * delivered at commit, and a worker that was mid-pass sees the bumped `generation` and runs again.
 * A session that does not exist (deleted meanwhile) is ignored.
 */
export async function requestTurn(ctx: AppContext, sessionId: string, db?: pg.Pool | pg.PoolClient): Promise<void> {
  await (db ?? ctx.db.pool).query(
    `WITH upsert AS (
       INSERT INTO session_runs ("sessionId", "requestedAt")
       SELECT id, now() FROM sessions WHERE id = $1
       ON CONFLICT ("sessionId") DO UPDATE
         SET "requestedAt" = now(), "generation" = session_runs."generation" + 1
       RETURNING "sessionId"
     )
     SELECT pg_notify($2, "sessionId") FROM upsert`,
    [sessionId, SESSION_WORK_CHANNEL],
  );
}
