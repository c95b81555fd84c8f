import type { ModelRef } from "@agent-platform/contract";
import type pg from "pg";
import { budgetExceededError, reserveUsage } from "../../budgets/index.js";
import { AppError, notFound } from "../../http/app-error.js";
import { newId } from "../../ids.js";
import { SESSION_COLUMNS, type SessionRow } from "./session-row.js";
import { requestTurn } from "./turn-job.js";

type Queryable = Pick<pg.Pool, "query">;

/** What a fork point is: the source's state at `atSeq`, read by one statement over the prefix. */
export interface ForkPoint {
  workspaceId: string;
  agentId: string;
  agentVersion: number;
  lastSeq: number;
  /** A turn is running at `atSeq`, or tool uses there have no result yet (or wait for an answer). */
  open: boolean;
  /** Stop reason of the last `session.status_idle` of the prefix. */
  stopReason: string | null;
  /** The prefix ends with input the agent has not handled yet (a `user.message` after the last status entry). */
  pendingInput: boolean;
}

const TOOL_USES = `('agent.tool_use', 'agent.mcp_tool_use', 'agent.custom_tool_use')`;
const TOOL_RESULTS = `('agent.tool_result', 'agent.mcp_tool_result', 'user.custom_tool_result')`;

/**
 * The source session (of the project) and its state at `atSeq`; not found for another project. Reads the prefix with
 * index range scans on `(sessionId, seq)`; the unanswered-tool check is an anti-join on the same range.
 */
export async function readForkPoint(
  db: Queryable,
  projectId: string,
  sessionId: string,
  atSeq: number,
): Promise<ForkPoint> {
  const { rows } = await db.query<ForkPoint & { lastStatus: string | null }>(
    `SELECT s."workspaceId", s."agentId", s."agentVersion", s."lastSeq", st."type" AS "lastStatus",
       st."stopReason",
       EXISTS (SELECT 1 FROM session_events u WHERE u."sessionId" = s."id" AND u."seq" <= $3 AND u."type" IN ${TOOL_USES}
         AND NOT EXISTS (SELECT 1 FROM session_events r WHERE r."sessionId" = s."id" AND r."seq" > u."seq"
           AND r."seq" <= $3 AND r."type" IN ${TOOL_RESULTS}
           AND COALESCE(r."payload"->>'toolUseId', r."payload"->>'customToolUseId') = u."id")) AS "open",
       EXISTS (SELECT 1 FROM session_events m WHERE m."sessionId" = s."id" AND m."type" = 'user.message'
         AND m."seq" <= $3 AND m."seq" > COALESCE(st."seq", 0)) AS "pendingInput"
     FROM sessions s
     LEFT JOIN LATERAL (
       SELECT e."seq", e."type", e."payload"->>'stopReason' AS "stopReason" FROM session_events e
       WHERE e."sessionId" = s."id" AND e."seq" <= $3 AND e."type" IN ('session.status_running', 'session.status_idle')
       ORDER BY e."seq" DESC LIMIT 1
     ) st ON true
     WHERE s."id" = $1 AND s."projectId" = $2`,
    [sessionId, projectId, atSeq],
  );
  const row = rows[0];
  if (!row) throw notFound("session.not_found", "Session", sessionId);
  if (atSeq > row.lastSeq) {
    throw new AppError("request.invalid", `atSeq ${atSeq} is beyond the log of session ${sessionId} (${row.lastSeq})`, {
      issues: [{ path: "body.atSeq", message: `must be at most ${row.lastSeq}, the session's lastSeq` }],
    });
  }
  const open = row.open || row.lastStatus === "session.status_running" || row.stopReason === "requires_action";
  return {
    workspaceId: row.workspaceId,
    agentId: row.agentId,
    agentVersion: row.agentVersion,
    lastSeq: row.lastSeq,
    open,
    stopReason: row.lastStatus === "session.status_idle" ? row.stopReason : null,
    pendingInput: row.pendingInput,
  };
}

export interface NewFork {
  sourceId: string;
  atSeq: number;
  point: ForkPoint;
  agentId: string;
  agentVersion: number;
  /** Absent: the source's title. */
  title?: string | null;
  /** Replaces the model in the fork's loop settings; absent: the source's loop settings as they are. */
  model?: ModelRef;
  /** Posted messages are screened where they are stored (guardrails of another agent version); absent: the source's. */
  screensInput?: boolean;
}

/**
 * Writes a fork in the caller's transaction: reserves the session on the blocking budgets, inserts the row from the
 * source's (execution settings, metadata, title), copies the prefix of the log with one `INSERT … SELECT` (same `seq`,
 * id, payload and time per entry), copies the loop settings (not the delegation links: a fork is a top-level session)
 * and requests the turn when the prefix ends with unhandled input. Four statements whatever the log's length.
 */
export async function insertFork(client: pg.PoolClient, fork: NewFork): Promise<SessionRow> {
  const exceeded = await reserveUsage(client, {
    workspaceId: fork.point.workspaceId,
    agentId: fork.agentId,
    reserve: [{ meter: "sessions", amount: 1 }],
    check: ["tokens", "model_calls"],
  });
  if (exceeded) throw budgetExceededError(exceeded);
  const id = newId("session");
  const keepTitle = fork.title === undefined;
  const { rows } = await client.query<SessionRow>(
    `WITH created AS (
       INSERT INTO sessions ("id", "projectId", "workspaceId", "agentId", "agentVersion", "title", "metadata",
         "environmentId", "vaultIds", "resources", "stopReason", "lastSeq", "forkedFromSessionId", "forkedFromSeq",
         "screensInput")
       SELECT $1, s."projectId", s."workspaceId", $3, $4::int, CASE WHEN $5::boolean THEN s."title" ELSE $6 END,
         s."metadata", s."environmentId", s."vaultIds", s."resources", $7, $8::int, s."id", $8::int,
         COALESCE($9::boolean, s."screensInput")
       FROM sessions s WHERE s."id" = $2
       RETURNING ${SESSION_COLUMNS}
     ), copied AS (
       INSERT INTO session_events ("sessionId", "seq", "id", "type", "payload", "idempotencyKey", "createdAt")
       SELECT c."id", e."seq", e."id", e."type", e."payload", e."idempotencyKey", e."createdAt"
       FROM created c JOIN session_events e ON e."sessionId" = $2 AND e."seq" <= $8
     )
     SELECT * FROM created`,
    [
      id,
      fork.sourceId,
      fork.agentId,
      fork.agentVersion,
      keepTitle,
      keepTitle ? null : fork.title,
      fork.point.stopReason,
      fork.atSeq,
      fork.screensInput ?? null,
    ],
  );
  // The source was deleted since its fork point was read: nothing was written.
  if (!rows[0]) throw notFound("session.not_found", "Session", fork.sourceId);
  await copyLoopSettings(client, fork.sourceId, id, fork.model);
  if (fork.point.pendingInput) await requestTurn(client, id);
  return rows[0]!;
}

async function copyLoopSettings(client: pg.PoolClient, sourceId: string, forkId: string, model?: ModelRef) {
  const modelJson = model === undefined ? null : JSON.stringify(model);
  await client.query(
    `INSERT INTO session_loop_settings ("sessionId", "operator", "maxModelCalls", "readonly", "model", "guardrails")
     SELECT $2, COALESCE(l."operator", true), l."maxModelCalls", COALESCE(l."readonly", false),
       COALESCE($3::jsonb, l."model"), l."guardrails"
     FROM (SELECT 1) one LEFT JOIN session_loop_settings l ON l."sessionId" = $1
     WHERE l."sessionId" IS NOT NULL OR $3::jsonb IS NOT NULL`,
    [sourceId, forkId, modelJson],
  );
}
