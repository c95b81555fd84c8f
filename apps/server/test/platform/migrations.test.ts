import { readdirSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations, migrationsAlreadyApplied, readMigrationList } from "@agent-platform/db";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";

const list = () => readMigrationList();

describe("migrations", () => {
  it("apply on an empty database, then are a no-op", async () => {
    const name = `ap_mig_${Date.now()}`;
    const admin = new pg.Client({ connectionString: inject("pgAdminUrl") });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const u = new URL(inject("pgAdminUrl"));
    u.pathname = `/${name}`;
    try {
      const all = readdirSync(join(import.meta.dirname, "..", "..", "..", "..", "prisma", "migrations"), {
        withFileTypes: true,
      })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort();
      expect(await migrationsAlreadyApplied(u.toString(), list())).toBe(false);
      expect(await applyMigrations(u.toString())).toEqual(all);
      expect(await migrationsAlreadyApplied(u.toString(), list())).toBe(true);
      expect(await applyMigrations(u.toString())).toEqual([]);
      const client = new pg.Client({ connectionString: u.toString() });
      await client.connect();
      // Anything but an exact, finished history leaves the decision to the schema engine.
      const fewer = list();
      fewer.migrationDirectories.pop();
      expect(await migrationsAlreadyApplied(u.toString(), fewer)).toBe(false);
      await client.query("UPDATE _prisma_migrations SET checksum = 'edited' WHERE migration_name = $1", [all.at(-1)]);
      expect(await migrationsAlreadyApplied(u.toString(), list())).toBe(false);
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      );
      expect(rows[0].n).toBe(all.length);
      // A lookup by project and id (every tenant-scoped read) must not find an index that leads with "projectId" but
      // holds "id" behind another column: a generic plan could take it and read every entry of the project, a cost that
      // grows with the project (it did, for sessions: (projectId, agentId, id)).
      const { rows: indexes } = await client.query<{ name: string; columns: string[] }>(
        `SELECT i.indexrelid::regclass::text AS name,
           array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS columns
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
         WHERE c.relnamespace = 'public'::regnamespace`,
      );
      expect(indexes.some((i) => i.columns.join() === "projectId,id")).toBe(true);
      const traps = indexes.filter((i) => i.columns[0] === "projectId" && i.columns.indexOf("id") > 1);
      expect(traps.map((i) => `${i.name} (${i.columns.join(", ")})`)).toEqual([]);
      // The session log and the job queue are written on every turn: nothing may NOTIFY from inside those writes (the
      // NOTIFY lock would make their commits flush one at a time); their writers notify after the commit.
      const { rows: triggers } = await client.query<{ name: string }>(
        `SELECT t.tgname AS name FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
         WHERE NOT t.tgisinternal AND t.tgrelid IN ('session_events'::regclass, 'sessions'::regclass, 'jobs'::regclass)
           AND p.prosrc ~* 'notify'`,
      );
      expect(triggers).toEqual([]);
      await client.end();
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
