import type { PendingAction } from "@agent-platform/contract";
import type pg from "pg";
import { prepared } from "../../lib/prepared.js";
import { type EventRow, eventsAfterJsonSql } from "./event-log.js";
import type { ClaimedTurn } from "./local-turns.js";
import { loopSettingsJsonSql, type SessionLoopSettings } from "./loop-settings.js";
import type { ExecutionSettings } from "./session-row.js";

/** What the loop reads of a session at the start of a pass. */
export interface LoopSessionRow extends ExecutionSettings {
  id: string;
  projectId: string;
  workspaceId: string;
  agentId: string;
  agentVersion: number;
  status: string;
  stopReason: string | null;
  pendingActions: PendingAction[];
  settings: SessionLoopSettings | null;
  /** The log entries after `afterSeq` (at most `limit`). */
  newEvents: EventRow[];
  /** The `afterSeq` the entries follow. */
  afterSeq: number;
}

/** The session, its loop settings and the log entries after `afterSeq` (at most `limit`), as one row. */
function loopSessionSql(idSql: string, afterSql: string, limitSql: string): string {
  return `SELECT s."id", s."projectId", s."workspaceId", s."agentId", s."agentVersion", s."environmentId",
       COALESCE(s."vaultIds", '{}') AS "vaultIds", s."resources", s."status", s."stopReason", s."pendingActions",
       ${loopSettingsJsonSql("l")} AS "settings",
       ${eventsAfterJsonSql('s."id"', afterSql, limitSql)} AS "newEvents", ${afterSql}::int AS "afterSeq"
     FROM sessions s LEFT JOIN session_loop_settings l ON l."sessionId" = s."id"
     WHERE s."id" = ${idSql}`;
}

/**
 * The session, its loop settings and the log entries after `afterSeq` (what the pass's cached prefix lacks), in one
 * query; undefined when the session is gone.
 */
export async function loadLoopSession(
  pool: pg.Pool,
  sessionId: string,
  afterSeq: number,
  limit: number,
): Promise<LoopSessionRow | undefined> {
  const { rows } = await pool.query<LoopSessionRow>(
    prepared(loopSessionSql("$1", "$2", "$3"), [sessionId, afterSeq, limit]),
  );
  return rows[0];
}

/**
 * The `preload` of the `session.turn` kind: the claim of a notified session reads `loadLoopSession`'s row as one JSON
 * value (null when the session is gone), after the prefix of the log this process has cached (`cachedSeq(key)`).
 */
export function sessionTurnPreload(
  cachedSeq: (sessionId: string) => number,
  limit: number,
): (key: string, param: (value: unknown) => string) => string {
  return (key, param) =>
    `SELECT row_to_json(r) FROM (${loopSessionSql(param(key), param(cachedSeq(key)), param(limit))}) r`;
}

/** The row `loadLoopSession` would have read, from what the ingestion statement that claimed the turn returned. */
export function claimedTurnRow(turn: ClaimedTurn): LoopSessionRow {
  const { session } = turn;
  return {
    id: session.id,
    projectId: session.projectId,
    workspaceId: session.workspaceId,
    agentId: session.agentId,
    agentVersion: session.agentVersion,
    environmentId: session.environmentId,
    vaultIds: session.vaultIds ?? [],
    resources: session.resources,
    status: session.status,
    stopReason: session.stopReason,
    pendingActions: session.pendingActions,
    settings: turn.settings,
    newEvents: turn.appended,
    afterSeq: turn.base,
  };
}
