import type pg from "pg";
import { activeTraceparent } from "../lib/telemetry/instruments.js";
import type { JobType } from "./job-type.js";
import { NOTIFY_PAYLOAD, wakeRunners } from "./queue.js";

type Queryable = Pick<pg.Pool, "query">;

/** A request for a job of a kind whose payload is `P`: the payload may be left out when `{}` is one. */
export type EnqueueRequest<P> = {
  key: string;
  /** Not before this time (a delay, a schedule). Absent: due now. */
  runAt?: Date;
} & ({} extends P ? { payload?: P } : { payload: P });

interface EnqueueInput {
  kind: string;
  key: string;
  payload: unknown;
  runAt?: Date;
}

/**
 * Records job requests durably in one statement and wakes the runners once it is committed (at the commit of the
 * transaction when `db` is the client of one, see `notifyAfterCommit`). A new row is due at `runAt`, or now. An
 * existing one is requested again: its `generation` moves (a run in progress runs once more when it ends) and its
 * payload is replaced; a free row also takes the new `runAt` when one is given, and otherwise keeps its due time (a
 * pending retry keeps its backoff).
 */
export async function enqueueJob<P>(db: Queryable, type: JobType<P>, request: EnqueueRequest<P>): Promise<void> {
  await enqueueJobs(db, type, [request]);
}

/**
 * Several requests of one kind at once: one statement (two when some carry `runAt` and others do not). The payload is
 * typed by the kind; it is parsed when a run claims it.
 */
export async function enqueueJobs<P>(
  db: Queryable,
  type: JobType<P>,
  requests: readonly EnqueueRequest<P>[],
): Promise<void> {
  const inputs = requests.map(
    (r): EnqueueInput => ({
      kind: type.kind,
      key: r.key,
      payload: (r as { payload?: P }).payload ?? {},
      ...(r.runAt ? { runAt: r.runAt } : {}),
    }),
  );
  const timed = inputs.filter((i) => i.runAt !== undefined);
  const now = inputs.filter((i) => i.runAt === undefined);
  if (now.length > 0) await upsert(db, now, false);
  if (timed.length > 0) await upsert(db, timed, true);
}

async function upsert(db: Queryable, inputs: readonly EnqueueInput[], timed: boolean): Promise<void> {
  const dueAt = timed
    ? `CASE WHEN jobs."leaseOwner" IS NULL THEN EXCLUDED."dueAt" ELSE jobs."dueAt" END`
    : `jobs."dueAt"`;
  const { rows } = await db.query<{ notice: string }>(
    `WITH enqueued AS (
       INSERT INTO jobs ("kind", "key", "payload", "dueAt", "traceparent")
       SELECT kind, key, payload, COALESCE(run_at, now()), $5::text
       FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::timestamptz[]) AS i(kind, key, payload, run_at)
       ON CONFLICT ("kind", "key") DO UPDATE SET "generation" = jobs."generation" + 1,
         "payload" = EXCLUDED."payload", "dueAt" = ${dueAt}, ${TRACEPARENT_UPDATE}
       RETURNING "kind", "key", "dueAt"
     )
     SELECT ${NOTIFY_PAYLOAD} AS "notice" FROM enqueued`,
    [
      inputs.map((i) => i.kind),
      inputs.map((i) => i.key),
      inputs.map((i) => JSON.stringify(i.payload ?? {})),
      inputs.map((i) => i.runAt?.toISOString() ?? null),
      activeTraceparent(),
    ],
  );
  await wakeRunners(
    db,
    rows.map((r) => r.notice),
  );
}

/** A request made outside any trace keeps the trace of the one before it. */
const TRACEPARENT_UPDATE = `"traceparent" = COALESCE(EXCLUDED."traceparent", jobs."traceparent")`;

/**
 * The request as CTEs to place in a larger statement (one round trip for a write and its job): `enqueued` upserts a
 * job of kind `kindSql` (a placeholder or a literal) for each key that `keysSql` selects (a sub-select of one column
 * named `key`), due now with an empty payload, requesting again one that exists; `woken` selects the notices that wake
 * the runners (column `notice`): the caller passes them to `wakeRunners` once the statement returns. `traceparentParam`
 * is the placeholder bound to `activeTraceparent()` (the run continues the caller's trace).
 */
export function enqueueCtes(kindSql: string, keysSql: string, traceparentParam: string): string {
  return `enqueued AS (
       INSERT INTO jobs ("kind", "key", "traceparent")
       SELECT ${kindSql}, k."key", ${traceparentParam}::text FROM (${keysSql}) AS k
       ON CONFLICT ("kind", "key") DO UPDATE SET "generation" = jobs."generation" + 1, ${TRACEPARENT_UPDATE}
       RETURNING "kind", "key", "dueAt"
     ), woken AS (
       SELECT ${NOTIFY_PAYLOAD} AS "notice" FROM enqueued
     )`;
}

/** Removes a job that is not running (a running one finishes its run, then finds its row gone and stops). */
export async function cancelJob(db: Queryable, type: JobType<unknown>, key: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM jobs WHERE "kind" = $1 AND "key" = $2`, [type.kind, key]);
  return (rowCount ?? 0) > 0;
}

/**
 * `enqueueCtes` for a caller that runs the job itself when it can (`JobRunner.reserve`): `keysSql` selects `key` and
 * `leased` (whether to take it); a job inserted with `leased` is written already leased to `tokenParam` for
 * `leaseMsParam` and not notified; a job that exists is requested again and notified (`woken`), as by `enqueueCtes`.
 * `enqueued` returns `leased`, `generation` (text) and `traceparent` per key.
 */
export function enqueueLeasedCtes(
  kindSql: string,
  keysSql: string,
  traceparentParam: string,
  tokenParam: string,
  leaseMsParam: string,
): string {
  return `enqueued AS (
       INSERT INTO jobs ("kind", "key", "traceparent", "leaseOwner", "dueAt", "attempts")
       SELECT ${kindSql}, k."key", ${traceparentParam}::text, CASE WHEN k."leased" THEN ${tokenParam}::text END,
         CASE WHEN k."leased" THEN now() + make_interval(secs => ${leaseMsParam}::float8 / 1000) ELSE now() END,
         CASE WHEN k."leased" THEN 1 ELSE 0 END
       FROM (${keysSql}) AS k
       ON CONFLICT ("kind", "key") DO UPDATE SET "generation" = jobs."generation" + 1, ${TRACEPARENT_UPDATE}
       RETURNING "kind", "key", "dueAt", "generation"::text AS "generation", "traceparent",
         "leaseOwner" IS NOT DISTINCT FROM ${tokenParam}::text AS "leased"
     ), woken AS (
       SELECT ${NOTIFY_PAYLOAD} AS "notice" FROM enqueued WHERE NOT enqueued."leased"
     )`;
}
