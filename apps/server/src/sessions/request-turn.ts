import { enqueueCtes, enqueueLeasedCtes, JOBS_CHANNEL } from "../jobs/index.js";
import { activeTraceparent } from "../lib/telemetry/instruments.js";

type Queryable = { query(sql: string, values: unknown[]): Promise<unknown> };

/** The job kind of a session's turns (key: the session id); run by the agent runtime (runtime/turns). */
export const SESSION_TURN_KIND = "session.turn";

/**
 * SQL of the turn request, as CTEs to place in a statement: `enqueued` requests a turn for each session id that
 * `sessionIdsSql` selects (a sub-select of one `id` column), `woken` NOTIFYs the runners; reference `woken` so it runs.
 * `channelParam` is the placeholder bound to `JOBS_CHANNEL`, `traceparentParam` the one bound to `activeTraceparent()`.
 */
export function requestTurnCtes(sessionIdsSql: string, channelParam: string, traceparentParam: string): string {
  return enqueueCtes(
    `'${SESSION_TURN_KIND}'`,
    `SELECT s."id" AS "key" FROM (${sessionIdsSql}) AS s`,
    channelParam,
    traceparentParam,
  );
}

/**
 * `requestTurnCtes` for a turn this process may run itself (`LocalTurnSlot`): `sessionKeysSql` selects `key` (the
 * session id) and `leased` (take it); see `enqueueLeasedCtes`.
 */
export function requestLeasedTurnCtes(
  sessionKeysSql: string,
  channelParam: string,
  traceparentParam: string,
  tokenParam: string,
  leaseMsParam: string,
): string {
  return enqueueLeasedCtes(
    `'${SESSION_TURN_KIND}'`,
    sessionKeysSql,
    channelParam,
    traceparentParam,
    tokenParam,
    leaseMsParam,
  );
}

/**
 * Records that a session has work for the agent loop (new user events) and wakes the runners. Durable: the request is a
 * job row, so it survives a restart and is run by one worker at a time. Call it after the user events are appended, or
 * inside the transaction that appends them (pass its client as `db`): the NOTIFY is then delivered at commit, and a
 * worker that was mid-pass sees the bumped `generation` and runs again. A session that does not exist is ignored.
 */
export async function requestTurn(db: Queryable, sessionId: string): Promise<void> {
  await db.query(
    `WITH ${requestTurnCtes('SELECT "id" FROM sessions WHERE "id" = $1', "$2", "$3")} SELECT count(*) FROM woken`,
    [sessionId, JOBS_CHANNEL, activeTraceparent()],
  );
}
