import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { type RunningPlatform, startPlatform } from "../../src/platform-process.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";

let running: RunningPlatform | undefined;
let database: TestDatabase | undefined;
afterEach(async () => {
  await running?.close();
  await database?.drop();
  running = undefined;
  database = undefined;
});

async function start(env: Record<string, string>) {
  database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), "ap-boot-"));
  running = await startPlatform(
    loadConfig({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SECRETS_KEY: randomBytes(32).toString("base64"),
      PORT: "0",
      ROLE: "api",
      LOG_LEVEL: "silent",
      ...env,
    }),
  );
  return { dataDir, url: running.url! };
}

describe("bootstrap", () => {
  it("makes BOOTSTRAP_API_KEY an admin key of a default project", async () => {
    const key = `ap_${randomBytes(24).toString("base64url")}`;
    const { url } = await start({ BOOTSTRAP_API_KEY: key });
    const res = await fetch(`${url}/v1/platform/context`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { apiKey: { role: string }; project: { id: string } };
    expect(body.apiKey.role).toBe("admin");
    expect(body.project.id).toBe(running!.bootstrap!.projectId);
  });

  it("generates a key on the first start with an empty database, saved to DATA_DIR/api-key with mode 0600", async () => {
    const { dataDir, url } = await start({});
    const file = join(dataDir, "api-key");
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readFileSync(file, "utf8").trim();
    expect(key).toBe(running!.bootstrap!.apiKey);
    const res = await fetch(`${url}/v1/platform/context`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
  });

  it("reports the project again on a later start, without a new key", async () => {
    const { dataDir } = await start({});
    const first = running!.bootstrap!;
    await running!.close();
    running = await startPlatform(
      loadConfig({
        DATABASE_URL: database!.url,
        DATA_DIR: dataDir,
        SECRETS_KEY: randomBytes(32).toString("base64"),
        PORT: "0",
        ROLE: "api",
        LOG_LEVEL: "silent",
      }),
    );
    expect(running.bootstrap).toEqual({ projectId: first.projectId, generated: false });
  });

  it("prints and signs with the loopback URL when it listens on every interface (HOST=0.0.0.0, as in a container)", async () => {
    const { url } = await start({ HOST: "0.0.0.0" });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running!.ctx.config.publicUrl).toBe(url);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it("creates one workspace and one key when several processes start at once on an empty database", async () => {
    database = await createTestDatabase();
    const config = (role: string) =>
      loadConfig({
        DATABASE_URL: database!.url,
        DATA_DIR: mkdtempSync(join(tmpdir(), "ap-boot-")),
        SECRETS_KEY: randomBytes(32).toString("base64"),
        PORT: "0",
        ROLE: role,
        LOG_LEVEL: "silent",
      });
    const started = await Promise.all(["api", "api", "worker", "worker"].map((role) => startPlatform(config(role))));
    try {
      const generated = started.filter((p) => p.bootstrap?.generated);
      expect(generated).toHaveLength(1);
      expect(new Set(started.map((p) => p.bootstrap?.projectId)).size).toBe(1);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query(
          "SELECT (SELECT count(*) FROM workspaces)::int AS workspaces, (SELECT count(*) FROM api_keys)::int AS keys",
        );
        expect(rows[0]).toEqual({ workspaces: 1, keys: 1 });
      } finally {
        await client.end();
      }
    } finally {
      await Promise.all(started.map((p) => p.close()));
    }
  });
});
