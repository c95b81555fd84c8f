import type pg from "pg";
import { newId } from "../../ids.js";
import { notifyAfterCommit } from "../../lib/after-commit.js";

/**
 * The channel on which appends to session logs are announced, payload `<sessionId>:<lastSeq>`, sent after the commit
 * by whoever appended (`announceAppended`); `*` asks every listener to re-read the heads it follows.
 */
export const SESSION_EVENTS_CHANNEL = "session_events";

/**
 * Announces entries appended through `db` to the session's followers in every process, once they are committed (see
 * `notifyAfterCommit`). Every writer of the log calls it with what its statement appended.
 */
export function announceAppended(
  db: Pick<pg.Pool, "query">,
  sessionId: string,
  appended: readonly { seq: number }[],
): Promise<void> {
  if (appended.length === 0) return Promise.resolve();
  let last = appended[0]!.seq;
  for (const entry of appended) if (entry.seq > last) last = entry.seq;
  return notifyAfterCommit(db, [{ channel: SESSION_EVENTS_CHANNEL, payload: `${sessionId}:${last}` }]);
}

export interface NewEvent {
  type: string;
  payload?: Record<string, unknown>;
  idempotencyKey?: string;
  /** Preset id (tool uses are referred to by their event id before they are stored). */
  id?: string;
}

/** A log entry on the wire: `{ seq, id, type, createdAt, ...payload }`. */
export interface StoredEvent {
  seq: number;
  id: string;
  type: string;
  createdAt: string;
  [field: string]: unknown;
}

export interface EventRow {
  seq: number;
  id: string;
  type: string;
  payload: Record<string, unknown>;
  /** A Date, or already ISO 8601 text when the query formats it (`EVENT_CREATED_AT`). */
  createdAt: Date | string;
}

/** A timestamp column as ISO 8601 UTC text with milliseconds (what `Date#toISOString` writes), by PostgreSQL. */
const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `createdAt` as ISO 8601 text, formatted by PostgreSQL (cheaper than Date objects per row). */
export const EVENT_CREATED_AT = `${isoText('"createdAt"')} AS "createdAt"`;

/**
 * One log entry as its wire JSON text, built by PostgreSQL from a `session_events` row aliased `e`: the payload's
 * members, then `seq`, `id`, `type` and `createdAt` (what `toWireEvent` makes of the same row; no payload has those
 * keys). Text concatenation, not `jsonb` operators: it costs PostgreSQL about half as much per entry. `id` and `type`
 * are written unescaped: both are the server's own identifiers (`newId`'s alphabet; the log's known types), never
 * text from a request.
 */
export const EVENT_WIRE_JSON = `CASE WHEN e."payload" = '{}'::jsonb THEN '{' ELSE left(e."payload"::text, -1) || ', ' END
  || '"seq": ' || e."seq" || ', "id": "' || e."id" || '", "type": "' || e."type"
  || '", "createdAt": "' || ${isoText('e."createdAt"')} || '"}'`;

/** The payload object is freshly parsed per row, so it becomes the entry itself (no copy). */
export function toWireEvent(row: EventRow): StoredEvent {
  return Object.assign(row.payload, {
    seq: row.seq,
    id: row.id,
    type: row.type,
    createdAt: typeof row.createdAt === "string" ? row.createdAt : row.createdAt.toISOString(),
  });
}

/** Adds a value to a statement's parameters and returns its placeholder. */
export type At = (value: unknown) => string;

/** How one statement appends to a session's log (`appendCtes`). */
export interface Append {
  /** The session id's placeholder. */
  sessionIdSql: string;
  events: readonly NewEvent[];
  /** Further conditions on the session row (aliased `u`) for the append to happen. */
  where?: string;
  /** Further `SET` items of the session row (the head), each starting with a comma. */
  set?: string;
  /** A `FROM` item of the bump (e.g. a CTE the conditions read). */
  from?: string;
  /** Further columns the bump returns (the session row's, unqualified when there is no `from`). */
  bumpReturning?: string;
  /** What the appended entries return. */
  returning: string;
  /**
   * The last of `events` is appended only when this condition holds (SQL on the bump's `from` item); `bump` returns it
   * as `withLast`, and `lastSeq` moves by what is really appended.
   */
  lastOnlyIf?: string;
}

/**
 * The one rule of the log, as the CTEs `bump` and `appended` of a statement: the session row's `lastSeq` is bumped by
 * the number of events (its row lock serialises concurrent appends to one session, whoever makes them: ingestion, the
 * loop's commits, a delegation's child), `bump` returns the `base` the events follow, and the events take the numbers
 * after it, so `seq` is strictly increasing without gaps. Nothing is appended when the session row does not match.
 * The statement's caller announces what it appended (`announceAppended`).
 */
export function appendCtes(at: At, append: Append): string {
  const { events, sessionIdSql, lastOnlyIf } = append;
  const all = at(events.length);
  const count = lastOnlyIf ? `(${all}::int - CASE WHEN ${lastOnlyIf} THEN 0 ELSE 1 END)` : `${all}::int`;
  return `bump AS (
       UPDATE sessions u SET "lastSeq" = u."lastSeq" + ${count}, "updatedAt" = now()${append.set ?? ""}
       ${append.from ? `FROM ${append.from}` : ""}
       WHERE u."id" = ${sessionIdSql}${append.where ? ` AND ${append.where}` : ""}
       RETURNING ${append.bumpReturning ? `${append.bumpReturning}, ` : ""}u."lastSeq" - ${count} AS "base"${
         lastOnlyIf ? `, (${lastOnlyIf}) AS "withLast"` : ""
       }
     ), appended AS (
       INSERT INTO session_events ("sessionId", "seq", "id", "type", "payload", "idempotencyKey")
       SELECT ${sessionIdSql}, bump."base" + input.ord, input.id, input.type, input.payload, input.ikey
       FROM bump, unnest(${at(events.map((e) => e.id ?? newId("event")))}::text[], ${at(events.map((e) => e.type))}::text[],
         ${at(events.map((e) => JSON.stringify(e.payload ?? {})))}::jsonb[],
         ${at(events.map((e) => e.idempotencyKey ?? null))}::text[]) WITH ORDINALITY AS input(id, type, payload, ikey, ord)
       ${lastOnlyIf ? `WHERE input.ord < ${all}::int OR bump."withLast"` : ""}
       RETURNING ${append.returning}
     )`;
}

/**
 * Appends events in one statement (`appendCtes`). Returns [] when the session does not exist (or is archived, with
 * `onlyActive`).
 */
export async function appendEvents(
  db: pg.Pool | pg.PoolClient,
  sessionId: string,
  events: NewEvent[],
  options: { onlyActive?: boolean; set?: (at: At) => string } = {},
): Promise<StoredEvent[]> {
  if (events.length === 0) return [];
  const params: unknown[] = [sessionId];
  const at: At = (value) => `$${params.push(value)}`;
  const ctes = appendCtes(at, {
    sessionIdSql: "$1",
    events,
    ...(options.set ? { set: options.set(at) } : {}),
    ...(options.onlyActive ? { where: 'u."archivedAt" IS NULL' } : {}),
    returning: '"seq", "id", "type", "payload", "createdAt"',
  });
  const { rows } = await db.query<EventRow>(`WITH ${ctes} SELECT * FROM appended`, params);
  await announceAppended(db, sessionId, rows);
  return rows.sort((a, b) => a.seq - b.seq).map(toWireEvent);
}

/** Reads the log after `afterSeq`, `limit` entries, in order. */
/**
 * SQL of a JSON array of the entries after `afterSql` (at most `limitSql`, in `seq` order) as `EventRow`s, to embed in a
 * larger query (one round trip for a row and the log that follows it). The arguments are placeholders or SQL.
 */
export function eventsAfterJsonSql(sessionIdSql: string, afterSql: string, limitSql: string): string {
  return `(SELECT COALESCE(json_agg(e ORDER BY e."seq"), '[]'::json) FROM (
       SELECT "seq", "id", "type", "payload", ${EVENT_CREATED_AT} FROM session_events
       WHERE "sessionId" = ${sessionIdSql} AND "seq" > ${afterSql} ORDER BY "seq" LIMIT ${limitSql}) e)`;
}

export async function readEvents(
  db: pg.Pool | pg.PoolClient,
  sessionId: string,
  afterSeq: number,
  limit: number,
): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT "seq", "id", "type", "payload", ${EVENT_CREATED_AT} FROM session_events
     WHERE "sessionId" = $1 AND "seq" > $2 ORDER BY "seq" LIMIT $3`,
    [sessionId, afterSeq, limit],
  );
  return rows.map(toWireEvent);
}
