// `pnpm bench`: starts the real platform (ROLE=all) on a fresh database and an instant fake OpenAI-compatible model on
// loopback, then measures the session loop. Every loop is bounded; the run stops by itself and prints a table.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { startPlatform } from "../src/platform-process.js";
import { startFakeOpenAI } from "../test/support/fake-openai.js";
import { apiClient, freshDatabase, LogWatcher, message, ProviderClock, percentile } from "./support.js";

const SEQUENTIAL_SESSIONS = 20;
const SEQUENTIAL_TURNS = 10;
const WARMUP_TURNS = 30;
const CONCURRENT_SESSIONS = 32;
const CONCURRENT_TURNS = 15;
const INGEST_CLIENTS = 8;
const INGEST_SINGLE_POSTS = 250;
const INGEST_BATCH_POSTS = 25;
const INGEST_BATCH = 100;
const LONG_LOG_EVENTS = 10_000;
const LONG_LOG_READS = 7;
/** One model turn adds running, agent.message, agent.usage and idle after the user message. */
const EVENTS_PER_TURN = 4;

type Ack = { events: { seq: number }[] };
type Page = { data: { seq: number }[]; hasMore: boolean; nextAfterSeq: number };

const fake = await startFakeOpenAI();
const database = await freshDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const platform = await startPlatform(
  loadConfig({
    ...(database ? { DATABASE_URL: database.url, SECRETS_KEY: randomBytes(32).toString("base64") } : {}),
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    ROLE: "all",
    BOOTSTRAP_API_KEY: key,
    OPENAI_COMPATIBLE_BASE_URL: fake.url,
    WORKER_CONCURRENCY: String(CONCURRENT_SESSIONS),
    LOG_LEVEL: "warn",
  }),
);
const pool = platform.ctx.db.pool;
const watcher = await LogWatcher.connect(pool.options.connectionString!);
const clock = new ProviderClock(new URL(fake.url).origin);
const api = apiClient(platform.url!, key);
const base = `/v1/projects/${platform.bootstrap!.projectId}`;
const rows: [string, string][] = [];
const out = (line: string) => process.stdout.write(`${line}\n`);

async function settle(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM session_runs`);
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the worker did not settle within 30 s");
}

async function newSession(agentId: string): Promise<string> {
  return (await api<{ id: string }>("POST", `${base}/sessions`, { agent: agentId })).id;
}

/** One turn: post a message, wait for the turn's idle entry. Returns end-to-end and provider-exchange times. */
async function turn(sessionId: string, text: string): Promise<{ e2e: number; model: number }> {
  const before = clock.read().ms;
  const t0 = performance.now();
  const ack = await api<Ack>("POST", `${base}/sessions/${sessionId}/events`, { events: [message(text)] });
  const t1 = await watcher.until(sessionId, ack.events[0]!.seq + EVENTS_PER_TURN);
  return { e2e: t1 - t0, model: clock.read().ms - before };
}

try {
  const agent = await api<{ id: string }>("POST", `${base}/agents`, {
    name: "Bench agent",
    model: "openai-compatible/fake-model",
    system: "Answer briefly.",
  });
  out(`platform ${platform.url} · database ${database ? "PostgreSQL (fresh database)" : "embedded PostgreSQL"}`);

  // ---- 1. overhead per turn, one turn at a time ----
  const warm = await newSession(agent.id);
  for (let i = 0; i < WARMUP_TURNS; i++) await turn(warm, `warm-up ${i}`);
  const overhead: number[] = [];
  const e2e: number[] = [];
  const model: number[] = [];
  for (let s = 0; s < SEQUENTIAL_SESSIONS; s++) {
    const session = await newSession(agent.id);
    for (let i = 0; i < SEQUENTIAL_TURNS; i++) {
      const r = await turn(session, `question ${i} of session ${s}`);
      e2e.push(r.e2e);
      model.push(r.model);
      overhead.push(r.e2e - r.model);
    }
  }
  const check = (await api<Page>("GET", `${base}/sessions/${warm}/events?limit=1000`)).data.length;
  if (check !== WARMUP_TURNS * (EVENTS_PER_TURN + 1)) throw new Error(`unexpected log length ${check}`);
  rows.push(
    [
      `Platform overhead per turn, median / p95 (${overhead.length} sequential turns)`,
      `${percentile(overhead, 50).toFixed(2)} ms / ${percentile(overhead, 95).toFixed(2)} ms`,
    ],
    [
      "  end-to-end turn (POST message → idle committed), median / p95",
      `${percentile(e2e, 50).toFixed(2)} ms / ${percentile(e2e, 95).toFixed(2)} ms`,
    ],
    ["  model time excluded (provider HTTP exchange), median", `${percentile(model, 50).toFixed(2)} ms`],
  );

  // ---- 2. throughput with 32 concurrent sessions ----
  const sessions = await Promise.all(Array.from({ length: CONCURRENT_SESSIONS }, () => newSession(agent.id)));
  const loaded: number[] = [];
  const started = performance.now();
  await Promise.all(
    sessions.map(async (session, s) => {
      for (let i = 0; i < CONCURRENT_TURNS; i++) loaded.push((await turn(session, `load ${s}.${i}`)).e2e);
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  rows.push(
    [
      `Turns/second, ${CONCURRENT_SESSIONS} concurrent sessions (${loaded.length} turns, WORKER_CONCURRENCY=${CONCURRENT_SESSIONS})`,
      `${(loaded.length / elapsed).toFixed(0)} turns/s`,
    ],
    [
      "  end-to-end turn under that load, median / p95",
      `${percentile(loaded, 50).toFixed(1)} ms / ${percentile(loaded, 95).toFixed(1)} ms`,
    ],
  );

  // ---- 3. ingestion ----
  await settle();
  for (const [posts, batch] of [
    [INGEST_SINGLE_POSTS, 1],
    [INGEST_BATCH_POSTS, INGEST_BATCH],
  ] as const) {
    const targets = await Promise.all(Array.from({ length: INGEST_CLIENTS }, () => newSession(agent.id)));
    const t0 = performance.now();
    await Promise.all(
      targets.map(async (session, c) => {
        for (let p = 0; p < posts; p++) {
          const events = Array.from({ length: batch }, (_, i) => message(`client ${c} post ${p} event ${i}`));
          await api("POST", `${base}/sessions/${session}/events`, { events });
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const total = INGEST_CLIENTS * posts * batch;
    rows.push([
      `Events ingested/second, ${INGEST_CLIENTS} clients, ${batch === 1 ? "one event per POST" : `batches of ${batch}`} (${total} events, the loop answering meanwhile)`,
      `${(total / seconds).toFixed(0)} events/s`,
    ]);
    await settle();
  }

  // ---- 4. reading a 10,000-event log ----
  const long = await newSession(agent.id);
  for (let p = 0; p < LONG_LOG_EVENTS / INGEST_BATCH; p++) {
    const events = Array.from({ length: INGEST_BATCH }, (_, i) => message(`line ${p * INGEST_BATCH + i}`));
    await api("POST", `${base}/sessions/${long}/events`, { events });
  }
  await settle();
  const reads: number[] = [];
  let size = 0;
  for (let r = 0; r < LONG_LOG_READS; r++) {
    const t0 = performance.now();
    let after = 0;
    size = 0;
    for (let page = 0; page < 100; page++) {
      const body = await api<Page>("GET", `${base}/sessions/${long}/events?afterSeq=${after}&limit=1000`);
      size += body.data.length;
      after = body.nextAfterSeq;
      if (!body.hasMore) break;
    }
    reads.push(performance.now() - t0);
  }
  rows.push([
    `Read of a ${size}-event log over HTTP (pages of 1000), median of ${LONG_LOG_READS}`,
    `${percentile(reads, 50).toFixed(1)} ms`,
  ]);

  const width = Math.max(...rows.map(([label]) => label.length));
  out("");
  out(`| ${"Measure".padEnd(width)} | Result |`);
  out(`|${"-".repeat(width + 2)}|--------|`);
  for (const [label, value] of rows) out(`| ${label.padEnd(width)} | ${value} |`);
  out("");
} finally {
  clock.close();
  await watcher.close().catch(() => {});
  await platform.close();
  await fake.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
