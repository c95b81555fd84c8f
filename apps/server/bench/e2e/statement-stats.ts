// pg_stat_statements of one database, when the server loads it (`shared_preload_libraries`; the system PostgreSQL of
// a developer's machine usually does not: run turn-statements.ts against a server that does, BENCH_DATABASE_URL).
import pg from "pg";

export interface StatementRow {
  query: string;
  calls: number;
  /** Milliseconds. */
  plan: number;
  exec: number;
  rows: number;
  wal: number;
}

export async function statementStats(
  databaseUrl: string,
): Promise<{ reset(): Promise<void>; read(): Promise<StatementRow[]> } | null> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const loaded = (
    await db.query<{ on: boolean }>(
      "SELECT current_setting('shared_preload_libraries') LIKE '%pg_stat_statements%' AS on",
    )
  ).rows[0]!.on;
  if (!loaded) {
    await db.end();
    return null;
  }
  await db.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  const dbid = (await db.query<{ oid: number }>("SELECT oid::int FROM pg_database WHERE datname = current_database()"))
    .rows[0]!.oid;
  return {
    async reset() {
      await db.query("SELECT pg_stat_statements_reset(0, $1::oid, 0)", [dbid]);
    },
    async read() {
      const { rows } = await db.query<StatementRow>(
        `SELECT query, calls::int AS calls, total_plan_time AS plan, total_exec_time AS exec, rows::int AS rows,
           wal_bytes::float8 AS wal
         FROM pg_stat_statements WHERE dbid = $1 AND query NOT LIKE '%pg_stat_statements%'
         ORDER BY total_plan_time + total_exec_time DESC`,
        [dbid],
      );
      await db.end();
      return rows;
    },
  };
}
