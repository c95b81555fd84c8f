import type pg from "pg";

/** The content of artifact versions of a session by id (text as UTF-8 bytes); ids of other sessions are not read. */
export async function artifactData(
  pool: pg.Pool,
  sessionId: string,
  ids: readonly string[],
): Promise<Map<string, Buffer>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; content: string; data: Buffer | null }>(
    `SELECT "id", "content", "data" FROM artifacts WHERE "sessionId" = $1 AND "id" = ANY($2::text[])`,
    [sessionId, [...ids]],
  );
  return new Map(rows.map((r) => [r.id, r.data ?? Buffer.from(r.content, "utf8")]));
}
