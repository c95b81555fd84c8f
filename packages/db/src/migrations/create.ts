import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DiffTarget } from "@prisma/schema-engine-wasm";
import { prismaDir, readMigrationList, readSchemaFiles } from "./files.js";
import { openSchemaEngine } from "./schema-engine.js";

// The schema as of the newest migration is kept beside the migrations, so the next migration is a pure
// schema-to-schema diff that needs no shadow database. The engine still insists on a reachable database to start.
const SNAPSHOT = "schema-snapshot.prisma";

/** Serialises concurrent `db:migration` runs in one checkout (a directory is created atomically). */
async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(dir, "migrations", ".lock");
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (i > 600) throw new Error(`${lock} is held; remove it if no migration is being created`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export async function createMigration(
  name: string,
  connectionString: string,
  now = new Date(),
): Promise<string | null> {
  const dir = prismaDir();
  return withLock(dir, () => writeNextMigration(dir, name, connectionString, now));
}

async function writeNextMigration(
  dir: string,
  name: string,
  connectionString: string,
  now: Date,
): Promise<string | null> {
  const schema = readSchemaFiles(dir);
  const merged = schema.map((f) => f.content).join("\n");
  const snapshotPath = join(dir, "migrations", SNAPSHOT);
  const hasHistory = readMigrationList(dir).migrationDirectories.length > 0;
  const from: DiffTarget = hasHistory
    ? { tag: "schemaDatamodel", files: [{ path: snapshotPath, content: readFileSync(snapshotPath, "utf8") }] }
    : { tag: "empty" };
  const { engine, close } = await openSchemaEngine({ schema, connectionString });
  let sql: string;
  try {
    const result = await engine.diff({
      from,
      to: { tag: "schemaDatamodel", files: schema },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    sql = result.stdout ?? "";
  } finally {
    await close();
  }
  if (!sql.trim() || sql.includes("This is an empty migration")) return null;
  const stamp = now
    .toISOString()
    .replace(/[-:TZ.]/g, "")
    .slice(0, 14);
  const folder = `${stamp}_${name.replace(/[^a-z0-9_]+/gi, "_").toLowerCase()}`;
  mkdirSync(join(dir, "migrations", folder), { recursive: true });
  writeFileSync(join(dir, "migrations", folder, "migration.sql"), sql);
  writeFileSync(snapshotPath, merged);
  const lock = join(dir, "migrations", "migration_lock.toml");
  if (!existsSync(lock)) writeFileSync(lock, 'provider = "postgresql"\n');
  return folder;
}
