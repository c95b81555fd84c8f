import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations, type EmbeddedDatabase, startEmbeddedPostgres } from "@agent-platform/db";
import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

const LOCAL_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres";

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function migrationsHash(): string {
  const dir = join(import.meta.dirname, "..", "..", "..", "..", "prisma", "migrations");
  const hash = createHash("sha256");
  for (const name of readdirSync(dir).sort()) {
    hash.update(name);
    try {
      hash.update(readFileSync(join(dir, name, "migration.sql")));
    } catch {}
  }
  return hash.digest("hex").slice(0, 12);
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

let embedded: EmbeddedDatabase | undefined;

/**
 * One migrated template database per migrations state; every test file clones its own copy from it (see database.ts).
 * PostgreSQL: TEST_DATABASE_URL, else the local server on 127.0.0.1:5432, else an embedded one.
 */
export async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    if (await reachable(LOCAL_SERVER)) adminUrl = LOCAL_SERVER;
    else {
      embedded = await startEmbeddedPostgres({
        dataDir: join(tmpdir(), "agent-platform-test-pg"),
        database: "postgres",
      });
      adminUrl = embedded.connectionString;
    }
  }
  const template = `ap_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query("SELECT pg_advisory_lock(4242)");
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
    if (exists.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${template}_build"`).catch(() => {});
      await applyMigrations(withDatabase(adminUrl, `${template}_build`));
      await admin.query(`ALTER DATABASE "${template}_build" RENAME TO "${template}"`);
    }
    await admin.query("SELECT pg_advisory_unlock(4242)");
  } finally {
    await admin.end();
  }
  project.provide("pgAdminUrl", adminUrl);
  project.provide("pgTemplate", template);
}

export async function teardown() {
  await embedded?.stop();
}
