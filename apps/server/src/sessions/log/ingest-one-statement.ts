import type { IngestedEvent, Session, UserEvent } from "@agent-platform/contract";
import type pg from "pg";
import { wakeRunners } from "../../jobs/index.js";
import { prepared } from "../../lib/prepared.js";
import { type At, announceAppended, appendCtes, EVENT_CREATED_AT, type EventRow, type NewEvent } from "./event-log.js";
import type { LocalTurnSlot } from "./local-turns.js";
import { loopSettingsJsonSql, type SessionLoopSettings } from "./loop-settings.js";
import { initialOutcome } from "./outcome-state.js";
import { SESSION_COLUMNS, type SessionRow, toSession } from "./session-row.js";
import { requestLeasedTurnCtes, requestTurnCtes } from "./turn-job.js";
import { toNewEvent } from "./user-events.js";

export interface IngestResult {
  events: IngestedEvent[];
  session: Session;
}

interface Row extends SessionRow {
  /** The runners' notices of a turn requested and not leased to the slot (null: none). */
  woken: string[] | null;
  events: (EventRow & { idempotencyKey: string | null })[];
  /** With a slot: the turn's job as the statement left it, the loop settings and the `lastSeq` before the append. */
  job?: { leased: boolean; generation: string; traceparent: string | null } | null;
  settings?: SessionLoopSettings | null;
  base?: number;
}

/**
 * The common case of ingestion in one round trip: a single statement bumps the session's `lastSeq` (its row lock
 * serialises appends, so `seq` stays gap-free), appends the events and records the work item — atomically, as one
 * statement is — then the followers and the runners are told. Returns null when it cannot decide alone (the session is
 * missing, foreign or archived; or an idempotency key is already in the log, which fails the whole statement on the
 * unique index): the caller then takes the general path, which reports the error or acknowledges the duplicates.
 *
 * With `slot` (this process runs turns and has one free), a session without a pending turn whose cached log ends where
 * the append begins gets its turn's job inserted already leased to the slot, and the turn starts here with what the
 * statement read and wrote; the slot is given back in every other case. When the slot says the loop would open the turn
 * first, the statement that leases it opens it too (`openingCtes`).
 */
export async function ingestInOneStatement(
  pool: pg.Pool,
  projectId: string,
  sessionId: string,
  events: UserEvent[],
  slot?: LocalTurnSlot,
): Promise<IngestResult | null> {
  const values: unknown[] = [sessionId, projectId];
  const at = (value: unknown) => `$${values.push(value)}`;
  const entries = events.map(toNewEvent);
  const returning = `"seq", "id", "type", "idempotencyKey"${slot ? `, "payload", ${EVENT_CREATED_AT}` : ""}`;
  let rows: Row[];
  try {
    const ctes = ingestionCtes(at, entries, returning, slot);
    ({ rows } = await pool.query<Row>(
      prepared(
        `WITH ${ctes}
         SELECT ${SESSION_COLUMNS.replace(/"(\w+)"/g, 'bump."$1"')},
           (SELECT array_agg("notice") FROM woken) AS "woken",
           (SELECT json_agg(appended ORDER BY "seq") FROM appended) AS "events"${
             slot
               ? `, bump."base",
           (SELECT row_to_json(j) FROM (SELECT "leased", "generation", "traceparent" FROM enqueued) j) AS "job",
           (SELECT ${loopSettingsJsonSql("l")} FROM session_loop_settings l WHERE l."sessionId" = $1) AS "settings"`
               : ""
           }
         FROM bump`,
        values,
      ),
    ));
  } catch (error) {
    slot?.release();
    if ((error as { code?: string }).code === "23505") return null;
    throw error;
  }
  const row = rows[0];
  if (row) {
    await announceAppended(pool, sessionId, row.events);
    if (row.woken) await wakeRunners(pool, row.woken);
  }
  if (slot) {
    if (row?.job?.leased) {
      const { events: appended, job, settings, base, ...session } = row;
      slot.start({
        generation: job.generation,
        traceparent: job.traceparent,
        session,
        settings: settings ?? null,
        base: base!,
        appended,
      });
    } else slot.release();
  }
  if (!row) return null;
  return {
    session: toSession(row),
    // The user's events (a `session.status_running` the statement appended after them is the loop's entry).
    events: row.events.slice(0, events.length).map((e) => ({
      seq: e.seq,
      id: e.id,
      type: e.type,
      ...(e.idempotencyKey !== null ? { idempotencyKey: e.idempotencyKey } : {}),
      duplicate: false,
    })),
  };
}

/**
 * The session rows ingestion in one statement writes to: a session whose posted messages are screened where they are
 * stored takes the transaction path.
 */
const ACCEPTS = 'u."projectId" = $2 AND u."archivedAt" IS NULL AND NOT u."screensInput"';

/** The append and the turn's request (leased to `slot` when it may be), opening the turn when the slot says so. */
function ingestionCtes(at: At, entries: NewEvent[], returning: string, slot: LocalTurnSlot | undefined): string {
  if (slot?.opensTurn(entries)) return openingCtes(at, entries, returning, slot);
  const append = appendCtes(at, {
    sessionIdSql: "$1",
    events: entries,
    where: ACCEPTS,
    bumpReturning: SESSION_COLUMNS,
    returning,
  });
  const request = slot
    ? requestLeasedTurnCtes(`SELECT "id" AS "key", "base" = ${at(slot.cachedSeq)} AS "leased" FROM bump`, at, slot)
    : requestTurnCtes('SELECT "id" FROM bump', at);
  return `${append}, ${request}`;
}

/**
 * The statement of a turn that opens at once (`LocalTurnSlot.opensTurn`): the session row is locked first, so whether
 * the turn's job is leased to the slot (no pending turn, and the log ends where the slot's cache does) is known before
 * the append; when it is, `session.status_running` is appended after the events and the head set as the loop's
 * opening commit sets it (`runningPlan`: running, no stop reason, no pending actions, a session with an outcome back
 * to pending). The lease is the slot's from this statement on, so the fence of that commit holds here trivially.
 * Otherwise the events alone are appended and the turn requested, as by the other statement.
 */
function openingCtes(at: At, entries: NewEvent[], returning: string, slot: LocalTurnSlot): string {
  const append = appendCtes(at, {
    sessionIdSql: "$1",
    events: [...entries, { type: "session.status_running", payload: {} }],
    lastOnlyIf: 'o."opens"',
    from: "opening o",
    set: `, "status" = CASE WHEN o."opens" THEN 'running' ELSE u."status" END,
       "stopReason" = CASE WHEN o."opens" THEN NULL ELSE u."stopReason" END,
       "pendingActions" = CASE WHEN o."opens" THEN '[]'::jsonb ELSE u."pendingActions" END,
       "outcome" = CASE WHEN o."opens" AND jsonb_typeof(o."outcome") = 'object'
         THEN jsonb_set(${at(JSON.stringify(initialOutcome(0)))}::jsonb, '{maxRevisions}', o."outcome"->'maxRevisions')
         ELSE u."outcome" END`,
    bumpReturning: SESSION_COLUMNS.replace(/"(\w+)"/g, 'u."$1"'),
    returning,
  });
  const locked = `s AS MATERIALIZED (
       SELECT u."id", u."lastSeq" = ${at(slot.cachedSeq)} AS "atCache" FROM sessions u WHERE u."id" = $1 AND ${ACCEPTS}
       FOR UPDATE
     )`;
  const request = requestLeasedTurnCtes('SELECT "id" AS "key", "atCache" AS "leased" FROM s', at, slot);
  const opening = `opening AS MATERIALIZED (
       SELECT e."leased" AS "opens", l."outcome" FROM enqueued e
       LEFT JOIN session_loop_settings l ON l."sessionId" = $1
     )`;
  return `${locked}, ${request}, ${opening}, ${append}`;
}
