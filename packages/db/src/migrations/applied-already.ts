import { createHash } from "node:crypto";
import type { MigrationList } from "@prisma/schema-engine-wasm";
import pg from "pg";

/**
 * True when the database already holds every migration of `list`, each finished, not rolled back, with the checksum
 * Prisma records (SHA-256 of the script), and nothing else: there is nothing for the schema engine to do. Loading the
 * engine (a WebAssembly module of tens of MiB) costs about a second and most of the process's peak memory, so an
 * up-to-date database is recognised with one query. Any other state (a new, failed, edited or unknown migration, no
 * history table) answers false and the engine decides, exactly as `prisma migrate deploy` would.
 */
export async function migrationsAlreadyApplied(connectionString: string, list: MigrationList): Promise<boolean> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // Rolled-back attempts stay in the history beside the attempt that replaced them; they are ignored, as the engine does.
    const { rows } = await client.query<{ name: string; checksum: string; finished: boolean }>(
      `SELECT migration_name AS name, checksum, finished_at IS NOT NULL AS finished
       FROM _prisma_migrations WHERE rolled_back_at IS NULL`,
    );
    // A failed attempt: the engine reports it.
    if (rows.some((r) => !r.finished)) return false;
    const applied = new Map(rows.map((r) => [r.name, r]));
    if (applied.size !== list.migrationDirectories.length) return false;
    return list.migrationDirectories.every((dir) => {
      const row = applied.get(dir.path);
      const file = dir.migrationFile.content;
      if (!row || file.tag !== "ok") return false;
      return row.checksum === createHash("sha256").update(file.value).digest("hex");
    });
  } catch (error) {
    // No history table yet: a fresh database.
    if ((error as { code?: string }).code === "42P01") return false;
    throw error;
  } finally {
    await client.end();
  }
}
