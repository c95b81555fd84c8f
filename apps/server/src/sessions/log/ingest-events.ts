import type { UserEvent } from "@agent-platform/contract";
import type pg from "pg";
import type { AppContext } from "../../context.js";
import { AppError, notFound } from "../../http/app-error.js";
import { inTransaction, isUniqueViolation } from "../../lib/transaction.js";
import { type IngestResult, ingestInOneStatement } from "./ingest-one-statement.js";
import type { LocalTurns } from "./local-turns.js";
import { SESSION_COLUMNS, type SessionRow, toSession } from "./session-row.js";
import { requestTurn } from "./turn-job.js";
import { appendUserEvents, type StoredInputScreen } from "./user-events.js";

/** The screen of a session whose posted messages are screened where they are stored (`screensInput`). */
export type InputScreenOf = (
  client: pg.PoolClient,
  session: Pick<SessionRow, "id" | "agentId" | "agentVersion">,
) => Promise<StoredInputScreen | undefined>;

export type { IngestResult };

/**
 * `POST …/sessions/:id/events`: the batch is appended whole or refused whole, in one transaction that locks the session
 * row (so concurrent posts and the loop's own appends are serialised and `seq` stays gap-free) and records the work
 * request for the loop (`requestTurn`: a durable job row, its NOTIFY delivered at commit, like the
 * `session_events` one that wakes followers). A retry racing its original on the same idempotency key waits on the row lock and then sees the original; a
 * unique violation on the key (an append that did not lock the row) is retried once, re-reading the log.
 */
export async function ingestEvents(
  ctx: Pick<AppContext, "db">,
  projectId: string,
  sessionId: string,
  events: UserEvent[],
  /** This process's turn slots, when it runs turns (`ROLE=all`): a turn may start here at once. */
  localTurns?: LocalTurns,
  screenOf?: InputScreenOf,
): Promise<IngestResult> {
  // Answers to tool uses are checked against the pending actions under the row lock: the general path.
  if (!events.some((e) => e.type === "user.tool_confirmation" || e.type === "user.custom_tool_result")) {
    const done = await ingestInOneStatement(ctx.db.pool, projectId, sessionId, events, localTurns?.(sessionId));
    if (done) return done;
  }
  let attempt = 0;
  for (;;) {
    try {
      const result = await inTransaction(ctx.db.pool, (client) =>
        appendLocked(client, projectId, sessionId, events, screenOf),
      );
      return { events: result.acks, session: result.session };
    } catch (error) {
      if (attempt++ === 0 && isUniqueViolation(error, "session_events_sessionId_idempotencyKey_key")) continue;
      throw error;
    }
  }
}

async function appendLocked(
  client: pg.PoolClient,
  projectId: string,
  sessionId: string,
  events: UserEvent[],
  screenOf: InputScreenOf | undefined,
) {
  const row = await lockSession(client, projectId, sessionId);
  if (row.archivedAt) {
    throw new AppError("session.archived", `Session ${sessionId} is archived and accepts no new events`);
  }
  const screen =
    row.screensInput && screenOf && events.some((e) => e.type === "user.message")
      ? await screenOf(client, row)
      : undefined;
  const { acks, appended } = await appendUserEvents(client, sessionId, row.pendingActions, events, screen);
  if (appended === 0) return { acks, session: toSession(row) };
  await requestTurn(client, sessionId);
  return { acks, session: toSession(await lockSession(client, projectId, sessionId)) };
}

export async function lockSession(
  client: pg.PoolClient,
  projectId: string,
  sessionId: string,
): Promise<SessionRow & { screensInput: boolean }> {
  const { rows } = await client.query<SessionRow & { screensInput: boolean }>(
    `SELECT ${SESSION_COLUMNS}, "screensInput" FROM sessions WHERE "id" = $1 AND "projectId" = $2 FOR UPDATE`,
    [sessionId, projectId],
  );
  if (!rows[0]) throw notFound("session.not_found", "Session", sessionId);
  return rows[0];
}
