import type pg from "pg";
import type { AppContext } from "../context.js";

/** Channel a worker LISTENs on; the payload is the session id. */
export const SESSION_WORK_CHANNEL = "session_work";

/**
 * SQL of the work request, as CTEs to place in a statement: `requested` upserts the `session_runs` rows of the session
 * ids `sessionIds` selects (a sub-select of one `id` column), `woken` NOTIFYs the workers; reference `woken` so it runs.
 * `channelParam` is the placeholder bound to SESSION_WORK_CHANNEL.
 */
export function requestTurnCtes(sessionIds: string, channelParam: string): string {
  return `requested AS (
       INSERT INTO session_runs ("sessionId", "requestedAt")
       SELECT id, now() FROM (${sessionIds}) AS s
       ON CONFLICT ("sessionId") DO UPDATE
         SET "requestedAt" = now(), "generation" = session_runs."generation" + 1
       RETURNING "sessionId"
     ), woken AS (
       SELECT pg_notify(${channelParam}, "sessionId") FROM requested
     )`;
}

/**
 * Records that a session has work for the agent loop (new user events) and wakes the workers. Durable: the request is a
 * row of `session_runs`, so it survives a restart and is claimed by exactly one worker at a time. Call it after the
 * user events are appended, or inside the transaction that appends them (pass its client as `db`): the NOTIFY is then
 * delivered at commit, and a worker that was mid-pass sees the bumped `generation` and runs again.
 * A session that does not exist (deleted meanwhile) is ignored.
 */
export async function requestTurn(ctx: AppContext, sessionId: string, db?: pg.Pool | pg.PoolClient): Promise<void> {
  await (db ?? ctx.db.pool).query(
    `WITH ${requestTurnCtes("SELECT id FROM sessions WHERE id = $1", "$2")} SELECT count(*) FROM woken`,
    [sessionId, SESSION_WORK_CHANNEL],
  );
}
