import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/prisma/client.js";

export type Database = PrismaClient;

export interface DatabaseHandle {
  prisma: PrismaClient;
  /** The same pool Prisma uses, for hand-written SQL on hot paths. */
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Connections in the pool (default 20). */
  max?: number;
  /**
   * How long a query waits for a connection (a free one, or a new one while the server is unreachable) before it fails
   * (default 5 s). Without it a request would wait for as long as the database is down.
   */
  connectTimeoutMs?: number;
}

export function connectDatabase(connectionString: string, options: ConnectOptions = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 20,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
  });
  // An idle client that loses its server connection emits 'error' on the pool; without a listener that kills the process.
  pool.on("error", () => {});
  // So does a checked-out client that loses it between two statements (a transaction awaiting other work while the
  // database restarts): pg then emits 'error' on the client itself, which nobody listens to while it is checked out.
  // The error is not lost: the client's next statement fails ("not queryable") and the pool discards it on release.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
