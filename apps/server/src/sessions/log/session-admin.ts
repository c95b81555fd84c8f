import type { Session } from "@agent-platform/contract";
import type pg from "pg";
import { notFound } from "../../http/app-error.js";
import { SESSION_COLUMNS, type SessionRow, toSession } from "./session-row.js";

async function updateOne(pool: pg.Pool, sql: string, params: unknown[], id: string): Promise<Session> {
  const { rows } = await pool.query<SessionRow>(sql, params);
  if (!rows[0]) throw notFound("session.not_found", "Session", id);
  return toSession(rows[0]);
}

/**
 * Renaming is only a label: no log entry, no wake-up, allowed on archived sessions, and `updatedAt` (the last change of
 * the log or the status) is left alone, which is why it is plain SQL rather than a Prisma update (`@updatedAt`).
 */
export function renameSession(pool: pg.Pool, projectId: string, id: string, title: string | null): Promise<Session> {
  return updateOne(
    pool,
    `UPDATE sessions SET "title" = $3 WHERE "id" = $1 AND "projectId" = $2 RETURNING ${SESSION_COLUMNS}`,
    [id, projectId, title],
    id,
  );
}

/** Idempotent: archiving an archived session returns it unchanged (the first `archivedAt` stays). */
export function archiveSession(pool: pg.Pool, projectId: string, id: string): Promise<Session> {
  return updateOne(
    pool,
    `UPDATE sessions SET "archivedAt" = COALESCE("archivedAt", now())
     WHERE "id" = $1 AND "projectId" = $2 RETURNING ${SESSION_COLUMNS}`,
    [id, projectId],
    id,
  );
}

/** Idempotent: an active session is returned unchanged; an archived one accepts events again. */
export function unarchiveSession(pool: pg.Pool, projectId: string, id: string): Promise<Session> {
  return updateOne(
    pool,
    `UPDATE sessions SET "archivedAt" = NULL WHERE "id" = $1 AND "projectId" = $2 RETURNING ${SESSION_COLUMNS}`,
    [id, projectId],
    id,
  );
}

/** The log and the loop's rows go with the session (foreign keys ON DELETE CASCADE). */
export async function deleteSession(pool: pg.Pool, projectId: string, id: string): Promise<void> {
  const { rowCount } = await pool.query(`DELETE FROM sessions WHERE "id" = $1 AND "projectId" = $2`, [id, projectId]);
  if (!rowCount) throw notFound("session.not_found", "Session", id);
}
