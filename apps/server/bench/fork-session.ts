// `pnpm bench` (fork part): forking a 5,000-entry session at its last entry, through `POST …/sessions/:id/fork`, on a
// platform with ROLE=api (no worker: nothing else queries the database meanwhile) and a fresh database. Reports the
// time per fork and the SQL statements one fork request sends (every `pg` client query counted, the API key's lookup
// included), which must not grow with the log.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { loadConfig } from "../src/config.js";
import { startPlatform } from "../src/platform-process.js";
import { apiClient, benchPlatformEnv, freshDatabase, percentile } from "./support.js";

const ENTRIES = 5_000;
const FORKS = 20;

let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  statements++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const database = await freshDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const platform = await startPlatform(
  loadConfig({
    ...benchPlatformEnv({ databaseUrl: database?.url, dataDir, apiKey: key, modelUrl: "http://127.0.0.1:9/v1" }),
    ROLE: "api",
  }),
);
const out = (line: string) => process.stdout.write(`${line}\n`);

try {
  const api = apiClient(platform.url!, key);
  const base = `/v1/projects/${platform.bootstrap!.projectId}`;
  const agent = await api<{ id: string }>("POST", `${base}/agents`, { name: "bench", model: "builtin/echo" });
  const session = await api<{ id: string }>("POST", `${base}/sessions`, { agent: agent.id });
  // The log is seeded with one statement: turns of five entries (message, running, answer, usage, idle).
  await platform.ctx.db.pool.query(
    `WITH seeded AS (
       INSERT INTO session_events ("sessionId", "seq", "id", "type", "payload")
       SELECT $1, g, 'evt_bench' || lpad(g::text, 21, '0'),
         (ARRAY['user.message', 'session.status_running', 'agent.message', 'agent.usage',
                'session.status_idle'])[(g - 1) % 5 + 1],
         CASE (g - 1) % 5
           WHEN 0 THEN jsonb_build_object('content', jsonb_build_array(jsonb_build_object('type', 'text',
             'text', 'question ' || g || ' ' || repeat('lorem ipsum ', 20))))
           WHEN 2 THEN jsonb_build_object('content', jsonb_build_array(jsonb_build_object('type', 'text',
             'text', 'answer ' || g || ' ' || repeat('dolor sit amet ', 30))))
           WHEN 3 THEN jsonb_build_object('model', 'builtin/echo', 'inputTokens', 30, 'outputTokens', 60)
           WHEN 4 THEN jsonb_build_object('stopReason', 'end_turn')
           ELSE '{}'::jsonb END
       FROM generate_series(1, $2::int) g RETURNING 1
     )
     UPDATE sessions SET "lastSeq" = $2 WHERE "id" = $1 AND (SELECT count(*) FROM seeded) = $2`,
    [session.id, ENTRIES],
  );
  await api("POST", `${base}/sessions/${session.id}/fork`, { atSeq: ENTRIES }); // warm-up
  const times: number[] = [];
  let perFork = 0;
  for (let i = 0; i < FORKS; i++) {
    const before = statements;
    const started = performance.now();
    const fork = await api<{ lastSeq: number }>("POST", `${base}/sessions/${session.id}/fork`, { atSeq: ENTRIES });
    times.push(performance.now() - started);
    perFork = statements - before;
    if (fork.lastSeq !== ENTRIES) throw new Error(`the fork has lastSeq ${fork.lastSeq}`);
  }
  const rows: [string, string][] = [
    [
      `fork of a ${ENTRIES}-entry session at its last entry (${FORKS} forks)`,
      `p50 ${percentile(times, 50).toFixed(1)} ms · p95 ${percentile(times, 95).toFixed(1)} ms`,
    ],
    ["SQL statements per fork request (auth, BEGIN and COMMIT included)", String(perFork)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  out("");
  out(`| ${"Fork".padEnd(width)} | Result |`);
  out(`|${"-".repeat(width + 2)}|--------|`);
  for (const [label, value] of rows) out(`| ${label.padEnd(width)} | ${value} |`);
  out("");
} finally {
  await platform.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
