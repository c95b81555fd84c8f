import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "@agent-platform/db";
import pg from "pg";
import { describe, expect, it } from "vitest";

describe("embedded PostgreSQL", () => {
  it("initialises, serves queries, stops, and starts again on the same data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ap-embedded-"));
    const first = await startEmbeddedPostgres({ dataDir });
    const client = new pg.Client({ connectionString: first.connectionString });
    await client.connect();
    await client.query("CREATE TABLE kept (v int)");
    await client.query("INSERT INTO kept VALUES (42)");
    await client.end();
    await first.stop();
    await expect(new pg.Client({ connectionString: first.connectionString }).connect()).rejects.toThrow();

    const second = await startEmbeddedPostgres({ dataDir });
    const again = new pg.Client({ connectionString: second.connectionString });
    await again.connect();
    const { rows } = await again.query("SELECT v FROM kept");
    await again.end();
    await second.stop();
    expect(rows).toEqual([{ v: 42 }]);
  }, 60_000);
});
