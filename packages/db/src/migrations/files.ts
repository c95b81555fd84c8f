import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { MigrationList } from "@prisma/schema-engine-wasm";

/** The repository's `prisma/` folder: PRISMA_DIR, else found upwards from this file (works from src and dist). */
export function prismaDir(): string {
  if (process.env.PRISMA_DIR) return resolve(process.env.PRISMA_DIR);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, "prisma", "schema");
    if (existsSync(candidate)) return join(dir, "prisma");
    dir = dirname(dir);
  }
  throw new Error("Cannot find the prisma/ folder; set PRISMA_DIR");
}

export function readSchemaFiles(dir = prismaDir()): { path: string; content: string }[] {
  const schemaDir = join(dir, "schema");
  return readdirSync(schemaDir)
    .filter((f) => f.endsWith(".prisma"))
    .sort()
    .map((f) => ({ path: join(schemaDir, f), content: readFileSync(join(schemaDir, f), "utf8") }));
}

export function readMigrationList(dir = prismaDir()): MigrationList {
  const baseDir = join(dir, "migrations");
  const entries = existsSync(baseDir)
    ? readdirSync(baseDir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort()
    : [];
  const lockPath = join(baseDir, "migration_lock.toml");
  return {
    baseDir,
    lockfile: { path: "migration_lock.toml", content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: entries.map((name) => {
      const file = join(baseDir, name, "migration.sql");
      return {
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: existsSync(file)
            ? { tag: "ok" as const, value: readFileSync(file, "utf8") }
            : { tag: "error" as const, value: `${file} is missing` },
        },
      };
    }),
  };
}
