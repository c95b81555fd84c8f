import type { PendingAction } from "@agent-platform/contract";
import type pg from "pg";
import { prepared } from "../../lib/prepared.js";
import {
  type ClaimedTurn,
  type EventRow,
  eventsAfterJsonSql,
  loopSettingsJsonSql,
  type SessionLoopSettings,
} from "../../sessions/index.js";
import { type SessionRuntimeInfo, sessionRuntimeInfo } from "../tools/types.js";

export interface LoopSessionRow extends SessionRuntimeInfo {
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

/** `loadLoopSession` as one JSON value (null when the session is gone), for the claim of its turn to read. */
export function loopSessionJsonSql(sessionId: string, afterSeq: number, limit: number, param: (v: unknown) => string) {
  return `SELECT row_to_json(r) FROM (${loopSessionSql(param(sessionId), param(afterSeq), param(limit))}) r`;
}

/** The row `loadLoopSession` would have read, from what the ingestion statement that claimed the turn returned. */
export function claimedTurnRow(turn: ClaimedTurn): LoopSessionRow {
  const { session } = turn;
  return {
    ...sessionRuntimeInfo({ ...session, vaultIds: session.vaultIds ?? [] }),
    status: session.status,
    stopReason: session.stopReason,
    pendingActions: session.pendingActions,
    settings: turn.settings,
    newEvents: turn.appended,
    afterSeq: turn.base,
  };
}
