import type pg from "pg";
import { SESSION_WORK_CHANNEL } from "./request-turn.js";

/**
 * SQL of the durable work queue (`session_runs`, see prisma/schema/session-runs.prisma). A claim is an UPDATE of the
 * oldest free row picked with FOR UPDATE SKIP LOCKED, so concurrent workers never claim the same row; a row is free
 * when it has no lease or its lease expired (the worker holding it died or stalled).
 */

type Queryable = Pick<pg.Pool, "query">;

export interface Claim {
  sessionId: string;
  token: string;
  /** `generation` at claim time: the pass completes the row only if no request arrived meanwhile. */
  generation: string;
  /** Claims since the last pass that ended normally (1 on a first claim). */
  attempts: number;
}

interface ClaimRow {
  sessionId: string;
  generation: string;
  attempts: number;
}

export async function claimRun(
  db: Queryable,
  token: string,
  leaseMs: number,
  sessionId?: string,
): Promise<Claim | undefined> {
  const { rows } = await db.query<ClaimRow>(
    `UPDATE session_runs r
     SET "leaseOwner" = $1, "leaseExpiresAt" = now() + make_interval(secs => $2::float8 / 1000), "attempts" = r."attempts" + 1
     WHERE r."sessionId" = (
       SELECT q."sessionId" FROM session_runs q
       WHERE (q."leaseExpiresAt" IS NULL OR q."leaseExpiresAt" <= now()) AND ($3::text IS NULL OR q."sessionId" = $3)
       ORDER BY q."requestedAt"
       LIMIT 1
       FOR UPDATE SKIP LOCKED
     )
     RETURNING r."sessionId", r."generation"::text AS "generation", r."attempts"`,
    [token, leaseMs, sessionId ?? null],
  );
  const row = rows[0];
  return row ? { sessionId: row.sessionId, token, generation: row.generation, attempts: row.attempts } : undefined;
}

/**
 * Inserts the work request of a new session already claimed by `token` (no NOTIFY): the creator runs it itself, and if
 * it dies the lease expires and any worker takes it over. Call it in the transaction that creates the session.
 */
export async function insertClaimedRun(
  db: Queryable,
  sessionId: string,
  token: string,
  leaseMs: number,
): Promise<Claim> {
  const { rows } = await db.query<ClaimRow>(
    `INSERT INTO session_runs ("sessionId", "leaseOwner", "leaseExpiresAt", "attempts")
     VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000), 1)
     RETURNING "sessionId", "generation"::text AS "generation", "attempts"`,
    [sessionId, token, leaseMs],
  );
  const row = rows[0]!;
  return { sessionId: row.sessionId, token, generation: row.generation, attempts: row.attempts };
}

/** Extends the lease; false when it is no longer ours. */
export async function renewLease(db: Queryable, claim: Claim, leaseMs: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE session_runs SET "leaseExpiresAt" = now() + make_interval(secs => $3::float8 / 1000)
     WHERE "sessionId" = $1 AND "leaseOwner" = $2`,
    [claim.sessionId, claim.token, leaseMs],
  );
  return (rowCount ?? 0) > 0;
}

export type CompleteOutcome = { kind: "done" } | { kind: "again"; generation: string } | { kind: "lost" };

/**
 * A pass ended normally: the row goes away unless a request arrived meanwhile (`generation` moved); then the lease is
 * kept and renewed, the attempt count reset, and the caller runs another pass with the new generation.
 */
export async function completeRun(db: Queryable, claim: Claim, leaseMs: number): Promise<CompleteOutcome> {
  const deleted = await db.query(
    `DELETE FROM session_runs WHERE "sessionId" = $1 AND "leaseOwner" = $2 AND "generation" = $3::bigint`,
    [claim.sessionId, claim.token, claim.generation],
  );
  if ((deleted.rowCount ?? 0) > 0) return { kind: "done" };
  const { rows } = await db.query<{ generation: string }>(
    `UPDATE session_runs SET "attempts" = 0, "leaseExpiresAt" = now() + make_interval(secs => $3::float8 / 1000)
     WHERE "sessionId" = $1 AND "leaseOwner" = $2
     RETURNING "generation"::text AS "generation"`,
    [claim.sessionId, claim.token, leaseMs],
  );
  return rows[0] ? { kind: "again", generation: rows[0].generation } : { kind: "lost" };
}

/** Drops the row whatever its generation (the session was stopped with an error). */
export async function dropRun(db: Queryable, claim: Claim): Promise<void> {
  await db.query(`DELETE FROM session_runs WHERE "sessionId" = $1 AND "leaseOwner" = $2`, [
    claim.sessionId,
    claim.token,
  ]);
}

/**
 * Gives the row back. Without a delay any worker is told at once (shutdown); with one, the row becomes claimable when
 * the delay is over (retry after a failed pass), picked up by the workers' lease-expiry timers.
 */
export async function releaseRun(db: Queryable, claim: Claim, delayMs = 0): Promise<void> {
  await db.query(
    `WITH released AS (
       UPDATE session_runs SET "leaseOwner" = NULL,
         "leaseExpiresAt" = CASE WHEN $3::float8 > 0 THEN now() + make_interval(secs => $3::float8 / 1000) END
       WHERE "sessionId" = $1 AND "leaseOwner" = $2
       RETURNING "sessionId"
     )
     SELECT pg_notify($4, "sessionId") FROM released WHERE $3::float8 <= 0`,
    [claim.sessionId, claim.token, delayMs, SESSION_WORK_CHANNEL],
  );
}

/** Milliseconds until the earliest lease (or retry delay) expires, null when no row has one. */
export async function nextExpiryMs(db: Queryable, sessionId?: string): Promise<number | null> {
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT GREATEST(0, EXTRACT(EPOCH FROM (min("leaseExpiresAt") - now())) * 1000)::float8 AS ms
     FROM session_runs WHERE "leaseExpiresAt" IS NOT NULL AND ($1::text IS NULL OR "sessionId" = $1)`,
    [sessionId ?? null],
  );
  return rows[0]?.ms ?? null;
}
