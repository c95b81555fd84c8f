// The WAL written for one database, by relation and record type: pg_waldump over an LSN range, keeping the records on
// the database's relations and the commit records of their transactions (other databases of a shared cluster write
// WAL too). Null when the WAL cannot be read here (a remote server, no pg_waldump).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import pg from "pg";

const WALDUMP = ["17", "16", "15"].map((v) => `/usr/lib/postgresql/${v}/bin/pg_waldump`).find((p) => existsSync(p));

export interface WalOfDatabase {
  total: number;
  /** Transactions that wrote to the database (their commit records): one per writing statement outside a transaction. */
  commits: number;
  /** Bytes by "relation rmgr/record", largest first (relations named when `names` maps their file nodes). */
  by: [string, number][];
}

export function walBetween(
  walDir: string | null,
  oid: number,
  start: string,
  end: string,
  names: ReadonlyMap<string, string> = new Map(),
): WalOfDatabase | null {
  if (start === end) return { total: 0, commits: 0, by: [] };
  if (!WALDUMP || !walDir || !existsSync(walDir)) return null;
  let text: string;
  try {
    text = execFileSync(WALDUMP, ["-p", walDir, "-s", start, "-e", end], {
      encoding: "utf8",
      maxBuffer: 512 * 1024 * 1024,
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch (error) {
    // pg_waldump exits non-zero at the end of the written WAL; what it printed are whole records.
    text = (error as { stdout?: string }).stdout ?? "";
    if (!text) return null;
  }
  const record = /^rmgr: (\S+)\s+len \(rec\/tot\):\s*\d+\/\s*(\d+), tx:\s*(\d+), lsn: \S+, prev \S+, desc: (\S+)/;
  const rel = new RegExp(`rel \\d+/${oid}/(\\d+)`);
  const by = new Map<string, number>();
  const ours = new Set<string>();
  const commits: { tx: string; bytes: number }[] = [];
  let total = 0;
  for (const line of text.split("\n")) {
    const m = record.exec(line);
    if (!m) continue;
    const r = rel.exec(line);
    const bytes = Number(m[2]);
    if (r) {
      const key = `${names.get(r[1]!) ?? r[1]} ${m[1]}/${m[4]}${line.includes("FPW") ? " (full page)" : ""}`;
      by.set(key, (by.get(key) ?? 0) + bytes);
      ours.add(m[3]!);
      total += bytes;
    } else if (m[1] === "Transaction") commits.push({ tx: m[3]!, bytes });
  }
  let committed = 0;
  for (const c of commits) {
    if (!ours.has(c.tx)) continue;
    by.set("commit records", (by.get("commit records") ?? 0) + c.bytes);
    total += c.bytes;
    committed++;
  }
  return { total, commits: committed, by: [...by].sort((a, b) => b[1] - a[1]) };
}

/** The WAL written for the database of `databaseUrl` while `work` runs. */
export async function walOfTurns(databaseUrl: string, work: () => Promise<void>): Promise<WalOfDatabase | null> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ oid: number; dir: string }>(
      `SELECT (SELECT oid::int FROM pg_database WHERE datname = current_database()) AS "oid",
        current_setting('data_directory') AS "dir"`,
    );
    const { oid, dir } = rows[0]!;
    const lsn = async () => (await db.query<{ l: string }>("SELECT pg_current_wal_lsn()::text AS l")).rows[0]!.l;
    const start = await lsn();
    await work();
    const end = await lsn();
    const names = new Map(
      (
        await db.query<{ node: string; name: string }>(
          `SELECT pg_relation_filenode(oid)::text AS node, relname AS name FROM pg_class
           WHERE pg_relation_filenode(oid) IS NOT NULL`,
        )
      ).rows.map((r) => [r.node, r.name]),
    );
    return walBetween(`${dir}/pg_wal`, oid, start, end, names);
  } finally {
    await db.end();
  }
}
