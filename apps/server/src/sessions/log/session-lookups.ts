import type pg from "pg";
import { SESSION_TURN_KIND } from "./turn-job.js";

type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;

/** Reads of the session log for other folders (the sandbox, the workspace files, delegation, the interrupt watch). */

/** The session's environment; undefined when the session does not exist (in `projectId`, when given). */
export async function sessionEnvironment(
  db: Queryable,
  sessionId: string,
  projectId?: string,
): Promise<{ environmentId: string | null } | undefined> {
  const { rows } = await db.query<{ environmentId: string | null }>(
    projectId === undefined
      ? 'SELECT "environmentId" FROM sessions WHERE "id" = $1'
      : 'SELECT "environmentId" FROM sessions WHERE "id" = $1 AND "projectId" = $2',
    projectId === undefined ? [sessionId] : [sessionId, projectId],
  );
  return rows[0];
}

/** Which of `ids` are sessions that still exist. */
export async function existingSessionIds(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>('SELECT "id" FROM sessions WHERE "id" = ANY($1::text[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

/**
 * Locks the session row (`FOR UPDATE`, until the caller's transaction ends) so that no turn starts meanwhile, and says
 * whether a turn runs or is requested. Undefined when the session is not in the project.
 */
export async function lockSessionAtRest(
  client: pg.PoolClient,
  projectId: string,
  sessionId: string,
): Promise<{ busy: boolean } | undefined> {
  const { rows } = await client.query<{ status: string; turn: boolean }>(
    `SELECT s."status", EXISTS (SELECT 1 FROM jobs WHERE "kind" = $3 AND "key" = s."id") AS "turn"
       FROM sessions s WHERE s."id" = $1 AND s."projectId" = $2 FOR UPDATE`,
    [sessionId, projectId, SESSION_TURN_KIND],
  );
  const head = rows[0];
  return head ? { busy: head.status === "running" || head.turn } : undefined;
}

/** Whether `sessionId` is a delegation (child session) of `parentId`. */
export async function isChildSession(db: Queryable, sessionId: string, parentId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM sessions WHERE "id" = $1 AND "parentSessionId" = $2`, [
    sessionId,
    parentId,
  ]);
  return rows.length > 0;
}

/** The session at the top of the session's delegation tree (itself when it is not a delegation). */
export async function delegationRootOf(db: Queryable, sessionId: string): Promise<string> {
  const { rows } = await db.query<{ delegationRoot: string | null }>(
    `SELECT "delegationRoot" FROM session_loop_settings WHERE "sessionId" = $1`,
    [sessionId],
  );
  return rows[0]?.delegationRoot ?? sessionId;
}

/** Subagent sessions already spawned in the delegation tree under `root`. */
export async function delegationsUnder(db: Queryable, root: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM session_loop_settings WHERE "delegationRoot" = $1`,
    [root],
  );
  return rows[0]?.n ?? 0;
}

/** The child session a coordinator's tool use created (a delegation re-run after a crash reuses it). */
export async function childOfToolUse(db: Queryable, toolUseId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ sessionId: string }>(
    `SELECT "sessionId" FROM session_loop_settings WHERE "delegatedBy" = $1`,
    [toolUseId],
  );
  return rows[0]?.sessionId;
}

/** The `seq` of an entry of `type` after `afterSeq` in the session's log, if there is one. */
export async function entryAfter(
  db: Queryable,
  sessionId: string,
  afterSeq: number,
  type: string,
): Promise<number | undefined> {
  const { rows } = await db.query<{ seq: number }>(
    `SELECT "seq" FROM session_events WHERE "sessionId" = $1 AND "seq" > $2 AND "type" = $3 LIMIT 1`,
    [sessionId, afterSeq, type],
  );
  return rows[0]?.seq;
}
