import type { PendingAction } from "@agent-platform/contract";
import type pg from "pg";
import { type EventRow, eventsAfterJsonSql, type SessionLoopSettings } from "../../sessions/index.js";
import type { SessionRuntimeInfo } from "../tools/types.js";

export interface LoopSessionRow extends SessionRuntimeInfo {
  status: string;
  stopReason: string | null;
  pendingActions: PendingAction[];
  settings: SessionLoopSettings | null;
  /** The log entries after `afterSeq` (at most `limit`). */
  newEvents: EventRow[];
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
    `SELECT s."id", s."projectId", s."workspaceId", s."agentId", s."agentVersion", s."environmentId",
       COALESCE(s."vaultIds", '{}') AS "vaultIds", s."resources", s."status", s."stopReason", s."pendingActions",
       CASE WHEN l."sessionId" IS NULL THEN NULL ELSE json_build_object('operator', l."operator",
         'maxModelCalls', l."maxModelCalls", 'readonly', l."readonly", 'model', l."model",
         'delegatedBy', l."delegatedBy", 'delegationRoot', l."delegationRoot") END AS "settings",
       ${eventsAfterJsonSql('s."id"', "$2", "$3")} AS "newEvents"
     FROM sessions s LEFT JOIN session_loop_settings l ON l."sessionId" = s."id"
     WHERE s."id" = $1`,
    [sessionId, afterSeq, limit],
  );
  return rows[0];
}
