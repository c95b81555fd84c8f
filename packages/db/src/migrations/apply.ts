import { migrationsAlreadyApplied } from "./applied-already.js";
import { readMigrationList, readSchemaFiles } from "./files.js";
import { openSchemaEngine } from "./schema-engine.js";

/**
 * Applies pending migrations of prisma/migrations exactly like `prisma migrate deploy` (rows in _prisma_migrations,
 * checksums, failures recorded). Returns the names applied now. An up-to-date database is recognised without the
 * schema engine (see `migrationsAlreadyApplied`).
 */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = readMigrationList();
  if (await migrationsAlreadyApplied(connectionString, migrationsList)) return [];
  const { engine, close } = await openSchemaEngine({ schema: readSchemaFiles(), connectionString });
  try {
    const out = await engine.applyMigrations({ migrationsList, filters: { externalTables: [], externalEnums: [] } });
    return out.appliedMigrationNames;
  } finally {
    await close();
  }
}
