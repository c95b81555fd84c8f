import type pg from "pg";
import { closeNotices, openNotices } from "./after-commit.js";

/**
 * Runs `fn` in one transaction on a dedicated pool client: committed when it resolves, rolled back when it throws. The
 * notices given to `notifyAfterCommit` with its client are sent after the commit (dropped on a rollback).
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A client whose ROLLBACK failed is in an unknown state: it is destroyed instead of going back to the pool.
  let broken: Error | undefined;
  let committed = false;
  try {
    await client.query("BEGIN");
    openNotices(client);
    const result = await fn(client);
    await client.query("COMMIT");
    committed = true;
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    closeNotices(client, pool, committed);
    client.release(broken);
  }
}

/** PostgreSQL unique violation on the given constraint (or any, without a name). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === "23505" && (constraint === undefined || e.constraint === constraint);
}
