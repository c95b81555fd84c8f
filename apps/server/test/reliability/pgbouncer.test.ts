import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, message, newSession, postEvents } from "../sessions/helpers.js";
import { expectGapFree, waitForIdle, waitUntil } from "../sessions/loop-helpers.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// The platform behind PgBouncer in transaction mode (Debian's pgbouncer, where installed): the pool goes through it,
// LISTEN, the migrations and the first start's lock connect directly (DATABASE_LISTEN_URL), and named prepared
// statements are off (PgBouncer before 1.21 cannot keep them per client).
const PGBOUNCER = "/usr/sbin/pgbouncer";
let bouncer: ChildProcess | undefined;
let dir: string;
let database: TestDatabase;
let t: TestApp;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe.skipIf(!existsSync(PGBOUNCER))("behind PgBouncer in transaction mode", () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    const direct = new URL(database.url);
    const port = await freePort();
    dir = mkdtempSync(join(tmpdir(), "ap-pgbouncer-"));
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, "users.txt"), `"${decodeURIComponent(direct.username)}" ""\n`, { mode: 0o644 });
    writeFileSync(
      join(dir, "pgbouncer.ini"),
      [
        "[databases]",
        `* = host=${direct.hostname} port=${direct.port || 5432}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${port}`,
        "unix_socket_dir =",
        "auth_type = trust",
        `auth_file = ${join(dir, "users.txt")}`,
        "pool_mode = transaction",
        "default_pool_size = 10",
        "max_client_conn = 500",
      ].join("\n"),
      { mode: 0o644 },
    );
    // PgBouncer refuses to run as root: it switches to `nobody` then.
    const asRoot = process.getuid?.() === 0 ? ["-u", "nobody"] : [];
    bouncer = spawn(PGBOUNCER, [...asRoot, join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    const collect = (c: Buffer) => {
      log += c.toString();
    };
    bouncer.stdout!.on("data", collect);
    bouncer.stderr!.on("data", collect);
    await waitUntil("pgbouncer", async () => (log.includes("process up") ? true : undefined), 10_000);
    const pooled = new URL(database.url);
    pooled.hostname = "127.0.0.1";
    pooled.port = String(port);
    t = await startTestApp({
      role: "all",
      database,
      databaseUrl: () => pooled.toString(),
      env: { DATABASE_LISTEN_URL: database.url, DATABASE_PREPARED_STATEMENTS: "off", DATABASE_POOL_MAX: "30" },
    });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    bouncer?.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs turns, follow-ups and their notifications through it", async () => {
    const agent = await createAgent(t, t.tenant);
    const sessions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => newSession(t, t.tenant, { agent: agent.id, events: [message(`hi ${i}`)] })),
    );
    for (const s of sessions) await waitForIdle(t, t.tenant, s.id);
    for (const s of sessions) expect((await postEvents(t, t.tenant, s.id, [message("again")])).status).toBe(202);
    for (const s of sessions) {
      const log = await waitForIdle(t, t.tenant, s.id, 2);
      expectGapFree(log);
      expect(log.filter((e: { type: string }) => e.type === "agent.message")).toHaveLength(2);
    }
  }, 60_000);
});
