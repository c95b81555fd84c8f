import type pg from "pg";

export interface WorkspaceSnapshot {
  generation: number;
  /** tar.gz of /workspace */
  snapshot: Buffer;
  bytes: number;
  files: number;
  updatedAt: Date;
}

type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;

/** The session's saved workspace, or null when it has never held a file. `forUpdate` locks it (in a transaction). */
export async function loadWorkspaceSnapshot(
  db: Queryable,
  sessionId: string,
  options: { forUpdate?: boolean } = {},
): Promise<WorkspaceSnapshot | null> {
  const { rows } = await db.query<WorkspaceSnapshot>(
    `SELECT "generation", "snapshot", "bytes", "files", "updatedAt" FROM session_workspaces WHERE "sessionId" = $1
     ${options.forUpdate ? "FOR UPDATE" : ""}`,
    [sessionId],
  );
  return rows[0] ?? null;
}

/** The generation saved last (0 when none), without the snapshot itself. */
export async function workspaceGeneration(db: Queryable, sessionId: string): Promise<number> {
  const { rows } = await db.query<{ generation: number }>(
    'SELECT "generation" FROM session_workspaces WHERE "sessionId" = $1',
    [sessionId],
  );
  return rows[0]?.generation ?? 0;
}

/** Saves a new snapshot as the next generation; returns it. */
export async function saveWorkspaceSnapshot(
  db: Queryable,
  sessionId: string,
  snapshot: Buffer,
  stats: { bytes: number; files: number },
): Promise<number> {
  const { rows } = await db.query<{ generation: number }>(
    `INSERT INTO session_workspaces ("sessionId", "generation", "snapshot", "bytes", "files", "updatedAt")
     VALUES ($1, 1, $2, $3, $4, now())
     ON CONFLICT ("sessionId") DO UPDATE SET "generation" = session_workspaces."generation" + 1,
       "snapshot" = EXCLUDED."snapshot", "bytes" = EXCLUDED."bytes", "files" = EXCLUDED."files", "updatedAt" = now()
     RETURNING "generation"`,
    [sessionId, snapshot, stats.bytes, stats.files],
  );
  return rows[0]!.generation;
}
