import type pg from "pg";
import {
  type Claim,
  enqueueCtes,
  enqueueLeasedCtes,
  insertClaimed,
  jobType,
  keyDueInMs,
  NO_PAYLOAD,
  wakeRunners,
} from "../../jobs/index.js";
import { activeTraceparent } from "../../lib/telemetry/instruments.js";

type Queryable = Pick<pg.Pool, "query">;

/**
 * The job kind of a session's turns (key: the session id, no payload). Its row is the log's: requested here when user
 * events are appended, fenced on by the loop's commits; the agent runtime builds the kind that runs it
 * (`runtime/turns`).
 */
export const SESSION_TURN_JOB = jobType("session.turn", NO_PAYLOAD);
export const SESSION_TURN_KIND = SESSION_TURN_JOB.kind;

/**
 * SQL of the turn request, as CTEs to place in a statement of this folder: `enqueued` requests a turn for each session
 * id that `sessionIdsSql` selects (a sub-select of one `id` column), `woken` selects the runners' notices (column
 * `notice`), for `wakeRunners` once the statement returned. `at` adds a value to the statement's parameters and returns
 * its placeholder.
 */
export function requestTurnCtes(sessionIdsSql: string, at: (value: unknown) => string): string {
  return enqueueCtes(
    `'${SESSION_TURN_KIND}'`,
    `SELECT s."id" AS "key" FROM (${sessionIdsSql}) AS s`,
    at(activeTraceparent()),
  );
}

/**
 * `requestTurnCtes` for a turn this process may run itself (`LocalTurnSlot`): `sessionKeysSql` selects `key` (the
 * session id) and `leased` (take it); see `enqueueLeasedCtes`.
 */
export function requestLeasedTurnCtes(
  sessionKeysSql: string,
  at: (value: unknown) => string,
  lease: { token: string; leaseMs: number },
): string {
  return enqueueLeasedCtes(
    `'${SESSION_TURN_KIND}'`,
    sessionKeysSql,
    at(activeTraceparent()),
    at(lease.token),
    at(lease.leaseMs),
  );
}

/**
 * Records that a session has work for the agent loop (new user events) and wakes the runners. Durable: the request is a
 * job row, so it survives a restart and is run by one worker at a time. Call it after the user events are appended, or
 * inside the transaction that appends them (pass its client as `db`): the runners are then woken after its commit, and
 * a worker that was mid-pass sees the bumped `generation` and runs again. A session that does not exist is ignored.
 */
export async function requestTurn(db: Queryable, sessionId: string): Promise<void> {
  const params: unknown[] = [sessionId];
  const at = (value: unknown) => `$${params.push(value)}`;
  const { rows } = await db.query<{ notice: string }>(
    `WITH ${requestTurnCtes('SELECT "id" FROM sessions WHERE "id" = $1', at)} SELECT "notice" FROM woken`,
    params,
  );
  await wakeRunners(
    db,
    rows.map((r) => r.notice),
  );
}

/** The turn of a session just created, inserted already claimed by `claimAs` (who runs it; no NOTIFY). */
export function insertClaimedTurn(
  client: pg.PoolClient,
  sessionId: string,
  claimAs: { token: string; leaseMs: number },
): Promise<Claim> {
  return insertClaimed(client, { kind: SESSION_TURN_KIND, key: sessionId, token: claimAs.token }, {}, claimAs.leaseMs);
}

/** In how many ms the session's turn is due (0: due now or running; null: no turn requested). */
export function turnDueInMs(pool: pg.Pool, sessionId: string): Promise<number | null> {
  return keyDueInMs(pool, SESSION_TURN_KIND, sessionId);
}
