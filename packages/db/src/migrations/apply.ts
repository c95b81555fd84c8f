import { readMigrationList, readSchemaFiles } from "./files.js";
import { openSchemaEngine } from "./schema-engine.js";

/**
 * Applies pending migrations of prisma/migrations exactly like `prisma migrate deploy` (rows in _prisma_migrations,
 * checksums, failures recorded). Returns the names applied now.
 */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const { engine, close } = await openSchemaEngine({ schema: readSchemaFiles(), connectionString });
  try {
    const out = await engine.applyMigrations({
      migrationsList: readMigrationList(),
      filters: { externalTables: [], externalEnums: [] },
    });
    return out.appliedMigrationNames;
  } finally {
    await close();
  }
}
