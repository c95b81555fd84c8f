import {
  type CursorPage,
  LIMITS,
  type Session,
  type SessionEventPage,
  type SessionListQueryInput,
} from "@agent-platform/contract";
import type pg from "pg";
import { notFound } from "../../http/app-error.js";
import { invalidRequest } from "../../http/error-envelope.js";
import { decodeCursor, pageOf } from "../../http/pagination.js";
import { LruCache } from "../../lib/lru-cache.js";
import { onePerOwner } from "../../lib/per-owner.js";
import { prepared } from "../../lib/prepared.js";
import { EVENT_CREATED_AT, EVENT_WIRE_JSON, type EventRow, toWireEvent } from "./event-log.js";
import { SESSION_COLUMNS, type SessionRow, toSession } from "./session-row.js";

export async function findSession(db: pg.Pool | pg.PoolClient, projectId: string, id: string): Promise<SessionRow> {
  const { rows } = await db.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE "id" = $1 AND "projectId" = $2`,
    [id, projectId],
  );
  if (!rows[0]) throw notFound("session.not_found", "Session", id);
  return rows[0];
}

export async function getSession(pool: pg.Pool, projectId: string, id: string): Promise<Session> {
  return toSession(await findSession(pool, projectId, id));
}

/**
 * Metadata filters in a canonical order, so the same filter set always gives the same cursor binding. The bounds the
 * query schema cannot express on a `deepObject` parameter are checked here.
 */
function metadataFilter(metadata: Record<string, string> | undefined): Record<string, string> | undefined {
  const entries = Object.entries(metadata ?? {});
  if (entries.length === 0) return undefined;
  if (entries.length > LIMITS.metadataEntries) {
    throw invalidRequest([{ path: "query.metadata", message: `at most ${LIMITS.metadataEntries} metadata filters` }]);
  }
  for (const [key] of entries) {
    if (key.length > LIMITS.metadataKeyLength) {
      throw invalidRequest([
        {
          path: `query.metadata.${key.slice(0, 16)}…`,
          message: `keys have at most ${LIMITS.metadataKeyLength} characters`,
        },
      ]);
    }
  }
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Newest first. `metadata[key]=value` filters are one JSONB containment test (`metadata @> {...}`), served by the GIN
 * index on `metadata`; `stopReason` and `search` (title substring) filter the rows of the project's newest-first index
 * scan, which stops at the page's last row. The cursor is bound to the whole filter set.
 */
export async function listSessions(
  pool: pg.Pool,
  projectId: string,
  query: SessionListQueryInput,
): Promise<CursorPage<Session>> {
  const metadata = metadataFilter(query.metadata);
  const filters = {
    agent: query.agent,
    status: query.status,
    stopReason: query.stopReason,
    search: query.search,
    archived: query.archived,
    metadata,
  };
  const after = decodeCursor(query.cursor, filters);
  const where = ['"projectId" = $1'];
  const params: unknown[] = [projectId];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(sql(params.length));
  };
  if (query.agent !== undefined) add((n) => `"agentId" = $${n}`, query.agent);
  if (query.status !== undefined) add((n) => `"status" = $${n}`, query.status);
  if (query.stopReason !== undefined) add((n) => `"stopReason" = $${n}`, query.stopReason);
  // A substring test (no pattern characters to escape); it filters the rows the newest-first index scan reads.
  if (query.search !== undefined)
    add((n) => `(strpos(lower("title"), lower($${n})) > 0 OR "id" = $${n})`, query.search);
  if (query.archived !== undefined) where.push(`"archivedAt" IS ${query.archived === "true" ? "NOT NULL" : "NULL"}`);
  if (metadata) add((n) => `"metadata" @> $${n}::jsonb`, JSON.stringify(metadata));
  if (after !== undefined) add((n) => `"id" < $${n}`, after);
  params.push(query.limit + 1);
  const { rows } = await pool.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE ${where.join(" AND ")} ORDER BY "id" DESC LIMIT $${params.length}`,
    params,
  );
  return pageOf(rows, query.limit, filters, (r) => r.id, toSession);
}

/** `nextAfterSeq` is the `seq` of the last entry returned, or `afterSeq` itself when there is none. */
export async function listSessionEvents(
  pool: pg.Pool,
  projectId: string,
  sessionId: string,
  afterSeq: number,
  limit: number,
): Promise<SessionEventPage & { head: number }> {
  // One round trip: the session's existence (in this project), its head and the page, via a lateral join.
  const { rows: found } = await pool.query<(EventRow | { seq: null }) & { head: number }>(
    prepared(
      `SELECT e."seq", e."id", e."type", e."payload", e."createdAt", s."lastSeq" AS "head" FROM sessions s
     LEFT JOIN LATERAL (
       SELECT "seq", "id", "type", "payload", ${EVENT_CREATED_AT} FROM session_events
       WHERE "sessionId" = s."id" AND "seq" > $3 ORDER BY "seq" LIMIT $4
     ) e ON true
     WHERE s."id" = $1 AND s."projectId" = $2`,
      [sessionId, projectId, afterSeq, limit + 1],
    ),
  );
  if (found.length === 0) throw notFound("session.not_found", "Session", sessionId);
  const rows = found[0]!.seq === null ? [] : (found as EventRow[]).map(toWireEvent);
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  return { data, hasMore, nextAfterSeq: data.length > 0 ? data[data.length - 1]!.seq : afterSeq, head: found[0]!.head };
}

/** A page of a log as sent, with the session's `lastSeq` when it was read. */
interface SentPage {
  head: number;
  text: string;
}

/**
 * Pages of logs this process has sent, by session, `afterSeq` and `limit` (bounded by total size). Entries never
 * change and a page is a function of the log up to the session's `lastSeq`, so a page read again while `lastSeq` is
 * unchanged is the same text: a log read by many clients, or re-read, is built once.
 */
const sentPages = onePerOwner(
  (_pool: pg.Pool) =>
    new LruCache<string, SentPage>({ maxEntries: 2_000, maxWeight: 16 * 1024 * 1024, weigh: (p) => p.text.length }),
);

/**
 * `listSessionEvents` as the response's JSON text, built by PostgreSQL in the same single round trip: a log entry never
 * changes, so the process neither parses nor re-serialises the page (the costliest part of reading a long log). When
 * this process sent the same page at the same `lastSeq`, the statement only checks the session and its head, and the
 * page is sent again as it was. `hasMore` is whether the log goes on after the page (`lastSeq` is its last entry).
 */
export async function listSessionEventsJson(
  pool: pg.Pool,
  projectId: string,
  sessionId: string,
  afterSeq: number,
  limit: number,
): Promise<string> {
  const pages = sentPages(pool);
  const key = `${sessionId} ${afterSeq} ${limit}`;
  const sent = pages.get(key);
  const { rows } = await pool.query<{ head: number; entries: string | null; last: number | null }>(
    prepared(
      `SELECT s."lastSeq" AS "head", p."entries", p."last" FROM sessions s
       CROSS JOIN LATERAL (
         SELECT string_agg(${EVENT_WIRE_JSON}, ',' ORDER BY e."seq") AS "entries", max(e."seq") AS "last"
         FROM (SELECT "seq", "id", "type", "payload", "createdAt" FROM session_events
               WHERE "sessionId" = s."id" AND "seq" > $3 AND s."lastSeq" <> $5 ORDER BY "seq" LIMIT $4) e
       ) p
       WHERE s."id" = $1 AND s."projectId" = $2`,
      [sessionId, projectId, afterSeq, limit, sent?.head ?? -1],
    ),
  );
  const row = rows[0];
  if (!row) throw notFound("session.not_found", "Session", sessionId);
  if (sent && row.head === sent.head) return sent.text;
  const hasMore = row.last !== null && row.last < row.head;
  const text = `{"data":[${row.entries ?? ""}],"hasMore":${hasMore},"nextAfterSeq":${row.last ?? afterSeq}}`;
  pages.set(key, { head: row.head, text });
  return text;
}
