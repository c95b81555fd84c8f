import type pg from "pg";

/** The content of the latest version of each of `names` in the session (text as UTF-8 bytes). */
export async function latestArtifactContents(
  pool: pg.Pool,
  sessionId: string,
  names: readonly string[],
): Promise<Map<string, Buffer>> {
  if (names.length === 0) return new Map();
  const { rows } = await pool.query<{ name: string; content: string; data: Buffer | null }>(
    `SELECT DISTINCT ON ("name") "name", "content", "data" FROM artifacts
      WHERE "sessionId" = $1 AND "name" = ANY($2::text[]) ORDER BY "name", "version" DESC`,
    [sessionId, [...names]],
  );
  return new Map(rows.map((r) => [r.name, r.data ?? Buffer.from(r.content, "utf8")]));
}
