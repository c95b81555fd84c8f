// What a server's work costs PostgreSQL, per database, while other databases of the same cluster are busy (the bench
// machine is shared): the CPU time of the database's backends (from /proc: PostgreSQL runs on this machine) and the WAL
// written for it (pg_waldump over the round's LSN range, keeping the records that touch the database's relations and
// the commit records of their transactions). Either reads null when it cannot be measured here (a remote server, no
// access to the data directory).
import { readFileSync } from "node:fs";
import pg from "pg";
import { walBetween } from "./turn-wal.js";

export interface DatabaseMark {
  cpu: Map<number, number>;
  lsn: string;
}

export interface DatabaseCost {
  /** CPU time (user + system) of the database's backends, in milliseconds. */
  cpuMs: number | null;
  walBytes: number | null;
  /** Transactions that wrote (commit records in the WAL). */
  writes: number | null;
}

function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export class DatabaseMeter {
  private constructor(
    private readonly admin: pg.Client,
    private readonly name: string,
    private readonly oid: number,
    private readonly walDir: string | null,
  ) {}

  static async open(databaseUrl: string): Promise<DatabaseMeter> {
    const name = new URL(databaseUrl).pathname.slice(1);
    const adminUrl = new URL(databaseUrl);
    adminUrl.pathname = "/postgres";
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    const { rows } = await admin.query<{ oid: number; dir: string | null }>(
      `SELECT d.oid::int AS "oid", (SELECT setting FROM pg_settings WHERE name = 'data_directory') AS "dir"
       FROM pg_database d WHERE d.datname = $1`,
      [name],
    );
    return new DatabaseMeter(admin, name, rows[0]!.oid, rows[0]?.dir ? `${rows[0].dir}/pg_wal` : null);
  }

  private async backends(): Promise<Map<number, number>> {
    const { rows } = await this.admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`,
      [this.name],
    );
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      const ms = processCpuMs(pid);
      if (ms !== null) cpu.set(pid, ms);
    }
    return cpu;
  }

  async mark(): Promise<DatabaseMark> {
    const { rows } = await this.admin.query<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS "lsn"`);
    return { cpu: await this.backends(), lsn: rows[0]!.lsn };
  }

  /** The cost since `from`. Backends that ended in between are not counted (pools keep theirs during a round). */
  async since(from: DatabaseMark): Promise<DatabaseCost> {
    const to = await this.mark();
    let cpuMs = 0;
    for (const [pid, ms] of to.cpu) cpuMs += ms - (from.cpu.get(pid) ?? 0);
    const wal = walBetween(this.walDir, this.oid, from.lsn, to.lsn);
    return { cpuMs: to.cpu.size > 0 ? cpuMs : null, walBytes: wal?.total ?? null, writes: wal?.commits ?? null };
  }

  close(): Promise<void> {
    return this.admin.end();
  }
}
