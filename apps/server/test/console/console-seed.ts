import type { TestApp } from "../support/test-app.js";

/**
 * Appends entries to a session's log as the loop would have written them, for entry types no API call produces on
 * demand here (thinking, compaction, and a type this console does not know yet): each gets the next `seq`, an id and
 * its payload. Test seeding only: the platform's own writes go through `sessions/log`.
 */
export async function appendLogEntries(
  t: TestApp,
  sessionId: string,
  entries: { type: string; payload: Record<string, unknown> }[],
): Promise<void> {
  const pool = t.platform.ctx.db.pool;
  const { rows } = await pool.query<{ lastSeq: number }>(`SELECT "lastSeq" FROM sessions WHERE id = $1`, [sessionId]);
  let seq = rows[0]!.lastSeq;
  for (const entry of entries) {
    seq++;
    await pool.query(
      `INSERT INTO session_events ("sessionId", "seq", "id", "type", "payload") VALUES ($1, $2, $3, $4, $5::jsonb)`,
      [sessionId, seq, `evt_seed${sessionId.slice(-6)}${seq}`, entry.type, JSON.stringify(entry.payload)],
    );
  }
  await pool.query(`UPDATE sessions SET "lastSeq" = $2 WHERE id = $1`, [sessionId, seq]);
}
