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

export function connectDatabase(connectionString: string, options: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 20 });
  // An idle client that loses its server connection emits 'error' on the pool; without a listener that kills the process.
  pool.on("error", () => {});
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
