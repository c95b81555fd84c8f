// `node --conditions=agent-platform-source --import tsx bench/e2e/turn-statements.ts`: the PostgreSQL statements of
// one W2 turn (create a session, post a message, follow the stream to `session.status_idle`), each with the time it
// was sent relative to the turn's start and which connection sent it, so a change to the turn's path can be checked
// statement by statement. The platform runs in this process (`ROLE=all`, default settings) on a fresh database, with
// the tests' instant OpenAI-compatible fake; fifty turns warm it up first. Diagnostic only: it wraps `pg.Client#query`.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { loadConfig } from "../../src/config.js";
import { startPlatform } from "../../src/platform-process.js";
import { startFakeOpenAI } from "../../test/support/fake-openai.js";
import { freshDatabase } from "../support.js";
import { statementStats } from "./statement-stats.js";
import { HttpClient, platformTarget } from "./targets.js";
import { walOfTurns } from "./turn-wal.js";

const log: { at: number; connection: number; text: string }[] = [];
let recording = false;
let started = 0;
const ids = new WeakMap<object, number>();
let nextId = 1;
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (recording) {
    if (!ids.has(this)) ids.set(this, nextId++);
    const first = args[0] as string | { text?: string; name?: string };
    const text = typeof first === "string" ? first : (first.text ?? first.name ?? "?");
    log.push({ at: performance.now() - started, connection: ids.get(this)!, text: text.replace(/\s+/g, " ") });
  }
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

const database = await freshDatabase();
if (!database) throw new Error("needs PostgreSQL (BENCH_DATABASE_URL)");
const fake = await startFakeOpenAI();
fake.respondWith(() => ({ text: "Hello." }));
const dataDir = mkdtempSync(join(tmpdir(), "ap-turn-statements-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const platform = await startPlatform(
  loadConfig({
    DATABASE_URL: database.url,
    SECRETS_KEY: randomBytes(32).toString("base64"),
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    ROLE: "all",
    BOOTSTRAP_API_KEY: key,
    OPENAI_COMPATIBLE_BASE_URL: fake.url,
    LOG_LEVEL: "warn",
  }),
);
const client = new HttpClient(platform.url!, { authorization: `Bearer ${key}` }, 1);
const target = platformTarget(platform.bootstrap!.projectId);
try {
  const agentId = await target.createAgent(client, 0);
  for (let i = 0; i < 50; i++) await target.turn(client, await target.createSession(client, agentId), "Warm up.");
  await new Promise((resolve) => setTimeout(resolve, 200));
  recording = true;
  started = performance.now();
  const sessionId = await target.createSession(client, agentId);
  const created = performance.now() - started;
  await target.turn(client, sessionId, "Hello?");
  const ended = performance.now() - started;
  // What the turn leaves to do after its last event (the job's completion, usage) belongs to it too.
  await new Promise((resolve) => setTimeout(resolve, 300));
  recording = false;
  for (const s of log) {
    process.stdout.write(`${s.at.toFixed(1).padStart(7)} ms  #${s.connection}  ${s.text.slice(0, 150)}\n`);
  }
  process.stdout.write(
    `\n${log.length} statements on ${new Set(log.map((s) => s.connection)).size} connections; session created at ` +
      `${created.toFixed(1)} ms, session.status_idle read at ${ended.toFixed(1)} ms\n`,
  );
  // The WAL of fifty such turns, by relation and record type (pg_waldump over their LSN range), and what PostgreSQL
  // spent on each statement when pg_stat_statements is loaded (a server with it in shared_preload_libraries).
  const statements = await statementStats(database.url);
  await statements?.reset();
  const wal = await walOfTurns(database.url, async () => {
    for (let i = 0; i < 50; i++) await target.turn(client, await target.createSession(client, agentId), "Again?");
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  if (statements) {
    process.stdout.write(
      "\npg_stat_statements, per turn (50 turns): calls · planning + execution ms · rows · WAL bytes · statement\n",
    );
    let ms = 0;
    for (const row of await statements.read()) {
      ms += (row.plan + row.exec) / 50;
      process.stdout.write(
        `${(row.calls / 50).toFixed(2).padStart(6)} · ${((row.plan + row.exec) / 50).toFixed(3).padStart(7)} ms · ` +
          `${(row.rows / 50).toFixed(1).padStart(5)} · ${(row.wal / 50).toFixed(0).padStart(6)} B · ` +
          `${row.query.replace(/\s+/g, " ").slice(0, 110)}\n`,
      );
    }
    process.stdout.write(`${ms.toFixed(3)} ms of planning and execution per turn\n`);
  }
  if (wal) {
    process.stdout.write(`\nWAL per turn (50 turns): ${(wal.total / 50).toFixed(0)} bytes\n`);
    for (const [what, bytes] of wal.by.slice(0, 25)) {
      process.stdout.write(`${(bytes / 50).toFixed(0).padStart(8)} B  ${what}\n`);
    }
  }
} finally {
  client.close();
  await platform.close();
  await fake.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
