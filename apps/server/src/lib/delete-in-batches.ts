import type pg from "pg";

const BATCH = 1_000;

/**
 * Deletes the rows of `table` (keyed by `"id"`) that `where` selects, a thousand per statement, so a sweep of a large
 * backlog never holds one long transaction or locks many rows at once. Returns how many went.
 */
export async function deleteInBatches(pool: pg.Pool, table: string, where: string, values: unknown[]): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `DELETE FROM ${table} WHERE "id" IN (SELECT "id" FROM ${table} WHERE ${where} LIMIT ${BATCH})`,
      values,
    );
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH) return deleted;
  }
}
