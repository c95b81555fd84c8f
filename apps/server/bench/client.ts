// The load side of `pnpm bench`, in a worker thread so that its own work (HTTP client, JSON, the fake model) does not
// run on the platform's event loop. It starts the fake model, waits for the platform, runs the phases, reports rows.
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";
import { startFakeOpenAI } from "../test/support/fake-openai.js";
import { liveDeltaRows } from "./live-deltas.js";
import { apiClient, LogWatcher, message, percentile } from "./support.js";

const SEQUENTIAL_SESSIONS = 20;
const SEQUENTIAL_TURNS = 10;
const WARMUP_TURNS = 30;
const CONCURRENT_TURNS = 15;
const INGEST_CLIENTS = 8;
const INGEST_SINGLE_POSTS = 250;
const INGEST_BATCH_POSTS = 25;
const INGEST_BATCH = 100;
const LONG_LOG_EVENTS = 10_000;
const LONG_LOG_READS = 7;
/** One model turn adds running, agent.message, agent.usage and idle after the user message. */
const EVENTS_PER_TURN = 4;

export interface Go {
  url: string;
  key: string;
  projectId: string;
  databaseUrl: string;
  concurrentSessions: number;
}

type Ack = { events: { seq: number }[] };
type Page = { data: { seq: number }[]; hasMore: boolean; nextAfterSeq: number };

/** [0]: ms the loop spent in model calls; [1]: ms of provider HTTP exchanges (written by the platform's thread). */
const shared = new Float64Array(workerData.shared as SharedArrayBuffer);
const port = parentPort!;

const fake = await startFakeOpenAI();
port.postMessage({ kind: "fake", url: fake.url });
const go = await new Promise<Go>((resolve) => port.once("message", resolve));

const api = apiClient(go.url, go.key);
const base = `/v1/projects/${go.projectId}`;
const watcher = await LogWatcher.connect(go.databaseUrl);
const db = new pg.Client({ connectionString: go.databaseUrl });
await db.connect();
const rows: [string, string][] = [];

async function settle(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE "kind" = 'session.turn'`);
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the worker did not settle within 30 s");
}

async function newSession(agentId: string): Promise<string> {
  return (await api<{ id: string }>("POST", `${base}/sessions`, { agent: agentId })).id;
}

/**
 * One turn: post a message, wait until the turn's idle entry is committed. Returns the end-to-end time, the time the
 * loop spent in the model call (`callModel`: provider request and the model client's own work) and, within it, the
 * provider's HTTP exchange. Meaningful per turn only when turns run one at a time.
 */
async function turn(
  sessionId: string,
  text: string,
): Promise<{ e2e: number; model: number; provider: number; ack: number; pass: number }> {
  const model0 = shared[0]!;
  const provider0 = shared[1]!;
  const pass0 = shared[2]!;
  const t0 = performance.now();
  const ack = await api<Ack>("POST", `${base}/sessions/${sessionId}/events`, { events: [message(text)] });
  const acked = performance.now();
  const t1 = await watcher.until(sessionId, ack.events[0]!.seq + EVENTS_PER_TURN);
  // The pass ends just after its last commit: wait for it so that its time is counted for this turn.
  for (let i = 0; i < 200 && shared[2] === pass0; i++) await new Promise((r) => setTimeout(r, 1));
  return {
    e2e: t1 - t0,
    model: shared[0]! - model0,
    provider: shared[1]! - provider0,
    ack: acked - t0,
    pass: shared[2]! - pass0,
  };
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

try {
  const agent = await api<{ id: string }>("POST", `${base}/agents`, {
    name: "Bench agent",
    model: "openai-compatible/fake-model",
    system: "Answer briefly.",
  });

  // ---- 1. overhead per turn, one turn at a time ----
  const warm = await newSession(agent.id);
  for (let i = 0; i < WARMUP_TURNS; i++) await turn(warm, `warm-up ${i}`);
  const check = (await api<Page>("GET", `${base}/sessions/${warm}/events?limit=1000`)).data.length;
  if (check !== WARMUP_TURNS * (EVENTS_PER_TURN + 1)) throw new Error(`unexpected log length ${check}`);
  const overhead: number[] = [];
  const e2e: number[] = [];
  const model: number[] = [];
  const provider: number[] = [];
  const acks: number[] = [];
  const passes: number[] = [];
  for (let s = 0; s < SEQUENTIAL_SESSIONS; s++) {
    const session = await newSession(agent.id);
    for (let i = 0; i < SEQUENTIAL_TURNS; i++) {
      const r = await turn(session, `question ${i} of session ${s}`);
      e2e.push(r.e2e);
      model.push(r.model);
      provider.push(r.provider);
      acks.push(r.ack);
      passes.push(r.pass - r.model);
      overhead.push(r.e2e - r.model);
    }
  }
  rows.push(
    [
      `Platform overhead per turn, median / p95 (${overhead.length} sequential turns)`,
      `${ms(percentile(overhead, 50))} / ${ms(percentile(overhead, 95))}`,
    ],
    [
      "  end-to-end turn (POST message → idle committed), median / p95",
      `${ms(percentile(e2e, 50))} / ${ms(percentile(e2e, 95))}`,
    ],
    [
      "  model time excluded (the loop's model call), median / p95",
      `${ms(percentile(model, 50))} / ${ms(percentile(model, 95))}`,
    ],
    ["    of which the provider's HTTP exchange (fake model, loopback), median", ms(percentile(provider, 50))],
    ["  within the overhead: POST …/events answered (HTTP ingestion), median", ms(percentile(acks, 50))],
    [
      "  within the overhead: the worker's pass, model call excluded, median / p95",
      `${ms(percentile(passes, 50))} / ${ms(percentile(passes, 95))}`,
    ],
  );

  // ---- 1b. live reply deltas ----
  rows.push(...(await liveDeltaRows(go, base, api, fake, agent.id)));

  // ---- 2. throughput with concurrent sessions ----
  const sessions = await Promise.all(Array.from({ length: go.concurrentSessions }, () => newSession(agent.id)));
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
      `Turns/second, ${go.concurrentSessions} concurrent sessions (${loaded.length} turns, WORKER_CONCURRENCY=${go.concurrentSessions})`,
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
  port.postMessage({ kind: "done", rows });
} catch (error) {
  port.postMessage({ kind: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
} finally {
  await watcher.close().catch(() => {});
  await db.end().catch(() => {});
  await fake.close();
}
