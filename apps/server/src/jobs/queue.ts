import type pg from "pg";
import { notifyAfterCommit } from "../lib/after-commit.js";
import { prepared } from "../lib/prepared.js";
import type { JobLease } from "./types.js";

/**
 * SQL of the durable job queue (`jobs`, see prisma/schema/jobs.prisma). A claim is an UPDATE of due rows picked with
 * FOR UPDATE SKIP LOCKED, so concurrent workers never claim the same row; a row is due when it is free and its run
 * time has come, or claimed and its lease expired (the worker holding it died or stalled). Every statement is one
 * round trip.
 */

type Queryable = Pick<pg.Pool, "query">;

/** Channel the runners LISTEN on; the payload is `<kind>|<due time, epoch ms>|<key>` (see `notifyPayload`). */
export const JOBS_CHANNEL = "jobs";

/** SQL of a notification's payload for a row of `jobs` (columns `kind`, `key`, `dueAt` in scope). */
export const NOTIFY_PAYLOAD = `"kind" || '|' || (EXTRACT(EPOCH FROM "dueAt") * 1000)::bigint || '|' || "key"`;

/** The payload that asks every runner to look at the whole queue (see `askRunnersToSweep`). */
export const SWEEP_PAYLOAD = "*";

/**
 * Asks every runner to look at the whole queue: sent by a process when it starts, since the process it replaces may
 * have died between a commit and the notice that should have followed it (runners look on their own only every 30 s).
 */
export function askRunnersToSweep(pool: pg.Pool): Promise<void> {
  return notifyAfterCommit(pool, [{ channel: JOBS_CHANNEL, payload: SWEEP_PAYLOAD }]);
}

/**
 * Wakes the runners for the job rows whose notices (`NOTIFY_PAYLOAD`) a statement through `db` returned, once it is
 * committed: the notices are sent after the commit, outside the writing transaction (see `notifyAfterCommit`).
 */
export function wakeRunners(db: Queryable, notices: readonly string[]): Promise<void> {
  return notifyAfterCommit(
    db,
    notices.map((payload) => ({ channel: JOBS_CHANNEL, payload })),
  );
}

export interface Claim extends JobLease {
  payload: unknown;
  /** `generation` at claim time: the run completes the row only if no request arrived meanwhile. */
  generation: string;
  attempts: number;
  lastError: string | null;
  /** W3C `traceparent` of the latest request (null untraced): the run continues that trace. */
  traceparent: string | null;
  /** What the kind's `preload` read with the claim (see `claimKey`); for the run's first round only. */
  preloaded?: unknown;
}

interface ClaimRow {
  key: string;
  payload: unknown;
  generation: string;
  attempts: number;
  token: string;
  lastError: string | null;
  traceparent: string | null;
  preloaded?: unknown;
}

const LEASE = (param: string) => `now() + make_interval(secs => ${param}::float8 / 1000)`;
const RETURNING = `RETURNING j."key", j."payload", j."generation"::text AS "generation", j."attempts",
  j."leaseOwner" AS "token", j."lastError", j."traceparent"`;

function toClaims(kind: string, rows: ClaimRow[]): Claim[] {
  return rows.map(({ preloaded, ...r }) => ({ kind, ...r, ...(preloaded != null ? { preloaded } : {}) }));
}

/** Claims up to `limit` due jobs of `kind`, the longest due first. Each claim gets its own token (`<prefix>:<uuid>`). */
export async function claimDue(
  db: Queryable,
  kind: string,
  tokenPrefix: string,
  leaseMs: number,
  limit: number,
): Promise<Claim[]> {
  const { rows } = await db.query<ClaimRow>(
    prepared(
      `UPDATE jobs j SET "leaseOwner" = $1 || ':' || gen_random_uuid(), "dueAt" = ${LEASE("$2")},
       "attempts" = j."attempts" + 1
     FROM (SELECT "kind", "key" FROM jobs WHERE "kind" = $3 AND "dueAt" <= now()
           ORDER BY "dueAt" LIMIT $4 FOR UPDATE SKIP LOCKED) picked
     WHERE j."kind" = picked."kind" AND j."key" = picked."key"
     ${RETURNING}`,
      [tokenPrefix, leaseMs, kind, limit],
    ),
  );
  return toClaims(kind, rows);
}

/**
 * Claims one job by key when it is due (a notification named it, or a caller wants to run it inline). With `preload`,
 * the same statement also reads what the run reads first (`JobKind.preload`); it is kept only when the claim's
 * snapshot held the generation claimed (a request committed between the snapshot and the row lock is not in it).
 */
export async function claimKey(
  db: Queryable,
  kind: string,
  key: string,
  tokenPrefix: string,
  leaseMs: number,
  preload?: (key: string, param: (value: unknown) => string) => string,
): Promise<Claim | undefined> {
  const values: unknown[] = [tokenPrefix, leaseMs, kind, key];
  const preloaded = preload
    ? `, CASE WHEN c."generation" = (SELECT "generation"::text FROM jobs WHERE "kind" = $3 AND "key" = $4)
         THEN (${preload(key, (value) => `$${values.push(value)}`)}) END AS "preloaded"`
    : "";
  const { rows } = await db.query<ClaimRow>(
    prepared(
      `WITH c AS (
         UPDATE jobs j SET "leaseOwner" = $1 || ':' || gen_random_uuid(), "dueAt" = ${LEASE("$2")},
           "attempts" = j."attempts" + 1
         FROM (SELECT "kind", "key" FROM jobs WHERE "kind" = $3 AND "key" = $4 AND "dueAt" <= now()
               FOR UPDATE SKIP LOCKED) picked
         WHERE j."kind" = picked."kind" AND j."key" = picked."key"
         ${RETURNING}
       )
       SELECT c.*${preloaded} FROM c`,
      values,
    ),
  );
  return toClaims(kind, rows)[0];
}

/**
 * Inserts a job already claimed by `token` (no NOTIFY): the caller runs it itself, and if it dies the lease expires and
 * any worker takes it over. Call it in the transaction that creates what the job works on.
 */
export async function insertClaimed(db: Queryable, lease: JobLease, payload: unknown, leaseMs: number): Promise<Claim> {
  const { rows } = await db.query<ClaimRow>(
    `INSERT INTO jobs AS j ("kind", "key", "payload", "leaseOwner", "dueAt", "attempts")
     VALUES ($1, $2, $3::jsonb, $4, ${LEASE("$5")}, 1)
     ${RETURNING}`,
    [lease.kind, lease.key, JSON.stringify(payload ?? {}), lease.token, leaseMs],
  );
  return toClaims(lease.kind, rows)[0]!;
}

/** Extends several leases in one statement; the ones still ours. */
export async function renewLeases(db: Queryable, leases: readonly JobLease[], leaseMs: number): Promise<Set<JobLease>> {
  const { rows } = await db.query<{ kind: string; key: string; token: string }>(
    prepared(
      `UPDATE jobs AS j SET "dueAt" = ${LEASE("$4")}
       FROM unnest($1::text[], $2::text[], $3::text[]) AS l("kind", "key", "token")
       WHERE j."kind" = l."kind" AND j."key" = l."key" AND j."leaseOwner" = l."token"
       RETURNING j."kind", j."key", j."leaseOwner" AS "token"`,
      [leases.map((l) => l.kind), leases.map((l) => l.key), leases.map((l) => l.token), leaseMs],
    ),
  );
  const id = (l: { kind: string; key: string; token: string }) => JSON.stringify([l.kind, l.key, l.token]);
  const ours = new Set(rows.map(id));
  return new Set(leases.filter((l) => ours.has(id(l))));
}

export type CompleteOutcome =
  | { kind: "done" }
  | { kind: "again"; generation: string; payload: unknown; traceparent: string | null }
  | { kind: "lost" };

/**
 * A run ended normally: the row goes away unless a request arrived meanwhile (`generation` moved); then the lease is
 * kept and renewed, the attempt count reset, and the caller runs again with the new generation and payload.
 */
export async function completeJob(db: Queryable, claim: Claim, leaseMs: number): Promise<CompleteOutcome> {
  // Two statements, not one: a DELETE and an UPDATE filtered on `generation` in one statement would both judge the row
  // by the statement's snapshot, and a request committed meanwhile would make both skip it.
  const deleted = await db.query(
    prepared(`DELETE FROM jobs WHERE "kind" = $1 AND "key" = $2 AND "leaseOwner" = $3 AND "generation" = $4::bigint`, [
      claim.kind,
      claim.key,
      claim.token,
      claim.generation,
    ]),
  );
  if ((deleted.rowCount ?? 0) > 0) return { kind: "done" };
  const { rows } = await db.query<{ generation: string; payload: unknown; traceparent: string | null }>(
    prepared(
      `UPDATE jobs SET "attempts" = 0, "lastError" = NULL, "dueAt" = ${LEASE("$4")}
     WHERE "kind" = $1 AND "key" = $2 AND "leaseOwner" = $3
     RETURNING "generation"::text AS "generation", "payload", "traceparent"`,
      [claim.kind, claim.key, claim.token, leaseMs],
    ),
  );
  const row = rows[0];
  return row
    ? { kind: "again", generation: row.generation, payload: row.payload, traceparent: row.traceparent }
    : { kind: "lost" };
}

/**
 * Gives the row back, due after `delayMs` (0: now, and every runner is told). `attemptsDelta` corrects the attempt
 * count (-1 for a run handed back unfinished by a stopping worker: that was no failure). `runAgain` keeps a schedule:
 * the row becomes due at that time with its attempts reset.
 */
export async function releaseJob(
  db: Queryable,
  lease: JobLease,
  options: { delayMs?: number; attemptsDelta?: number; lastError?: string | null; resetAttempts?: boolean } = {},
): Promise<void> {
  const delayMs = options.delayMs ?? 0;
  const { rows } = await db.query<{ notice: string }>(
    `WITH released AS (
       UPDATE jobs SET "leaseOwner" = NULL, "dueAt" = now() + make_interval(secs => $4::float8 / 1000),
         "attempts" = CASE WHEN $7 THEN 0 ELSE GREATEST(0, "attempts" + $5) END,
         "lastError" = COALESCE($6, "lastError")
       WHERE "kind" = $1 AND "key" = $2 AND "leaseOwner" = $3
       RETURNING "kind", "key", "dueAt"
     )
     SELECT ${NOTIFY_PAYLOAD} AS "notice" FROM released WHERE $4::float8 <= 0`,
    [
      lease.kind,
      lease.key,
      lease.token,
      delayMs,
      options.attemptsDelta ?? 0,
      options.lastError ?? null,
      options.resetAttempts === true,
    ],
  );
  await wakeRunners(
    db,
    rows.map((r) => r.notice),
  );
}

/** Deletes the row whatever its generation (the job gave up). */
export async function dropJob(db: Queryable, lease: JobLease): Promise<void> {
  await db.query(`DELETE FROM jobs WHERE "kind" = $1 AND "key" = $2 AND "leaseOwner" = $3`, [
    lease.kind,
    lease.key,
    lease.token,
  ]);
}

/** Milliseconds until the earliest row of these kinds becomes due (0 if one is due now), null when there is none. */
export async function nextDueMs(db: Queryable, kinds: readonly string[]): Promise<number | null> {
  // Not GREATEST(0, …) in SQL: it ignores a NULL, so an empty queue read as "due now" and every idle runner swept the
  // queue 20 times a second.
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT (EXTRACT(EPOCH FROM (min("dueAt") - now())) * 1000)::float8 AS ms FROM jobs WHERE "kind" = ANY($1::text[])`,
    [kinds],
  );
  const ms = rows[0]?.ms ?? null;
  return ms === null ? null : Math.max(0, ms);
}

/** Locks the job's row and checks the lease, in the caller's transaction: false when another worker owns it. */
export async function holdsLease(client: Queryable, lease: JobLease): Promise<boolean> {
  const { rows } = await client.query<{ leaseOwner: string | null }>(
    `SELECT "leaseOwner" FROM jobs WHERE "kind" = $1 AND "key" = $2 FOR SHARE`,
    [lease.kind, lease.key],
  );
  return rows[0]?.leaseOwner === lease.token;
}

/**
 * A run asked to run again at `runAt` (a schedule): the row is handed back due then, with its attempts reset — or due
 * now, and the runners told, when a request arrived during the run (`generation` moved). False when the lease was lost.
 */
export async function rescheduleJob(db: Queryable, claim: Claim, runAt: Date): Promise<boolean> {
  const { rows } = await db.query<{ requested: boolean; notice: string | null }>(
    `WITH released AS (
       UPDATE jobs SET "leaseOwner" = NULL, "attempts" = 0, "lastError" = NULL,
         "dueAt" = CASE WHEN "generation" = $4::bigint THEN $5::timestamptz ELSE now() END
       WHERE "kind" = $1 AND "key" = $2 AND "leaseOwner" = $3
       RETURNING "kind", "key", "dueAt", "generation" <> $4::bigint AS "requested"
     )
     SELECT "requested", CASE WHEN "requested" THEN ${NOTIFY_PAYLOAD} END AS "notice" FROM released`,
    [claim.kind, claim.key, claim.token, claim.generation, runAt.toISOString()],
  );
  await wakeRunners(
    db,
    rows.flatMap((r) => (r.notice === null ? [] : [r.notice])),
  );
  return rows.length > 0;
}

/** Milliseconds until one job becomes due (0 if it is due now), null when there is no such job. */
export async function keyDueInMs(db: Queryable, kind: string, key: string): Promise<number | null> {
  const { rows } = await db.query<{ ms: number }>(
    `SELECT GREATEST(0, EXTRACT(EPOCH FROM ("dueAt" - now())) * 1000)::float8 AS ms
     FROM jobs WHERE "kind" = $1 AND "key" = $2`,
    [kind, key],
  );
  return rows[0]?.ms ?? null;
}

/**
 * SQL of a DELETE (for a CTE of a run's last fenced statement) of the run's own row, when it still holds the lease and
 * no request arrived since its claim (`generation` unchanged) and `gate` (SQL) holds. The arguments are placeholders.
 */
export function releaseOwnJobSql(
  kindSql: string,
  keySql: string,
  tokenSql: string,
  generationSql: string,
  gate: string,
): string {
  return `DELETE FROM jobs WHERE "kind" = ${kindSql} AND "key" = ${keySql} AND "leaseOwner" = ${tokenSql}
    AND "generation" = ${generationSql}::bigint AND ${gate} RETURNING 1`;
}
