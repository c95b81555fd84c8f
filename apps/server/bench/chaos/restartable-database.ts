// A PostgreSQL of a trial's own that the trial can restart (`pnpm chaos` with CHAOS_FAULT=db-restart, and the
// database-restart test): the shared server of the test run must never go down under the other tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, startEmbeddedPostgres } from "@agent-platform/db";

export interface RestartableDatabase {
  url: string;
  /** Stops PostgreSQL (fast shutdown: every connection is cut), waits `outageMs`, starts it again on the same port. */
  restart(outageMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startRestartableDatabase(): Promise<RestartableDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "ap-restartable-pg-"));
  const database = await startEmbeddedPostgres({ dataDir: dir, database: "agent_platform" });
  await applyMigrations(database.connectionString);
  let running = true;
  return {
    url: database.connectionString,
    async restart(outageMs) {
      running = false;
      await database.stop();
      await new Promise((resolve) => setTimeout(resolve, outageMs));
      await database.start();
      running = true;
    },
    async close() {
      if (running) await database.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
