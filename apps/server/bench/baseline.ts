// `pnpm bench` (second part): the platform against a bare node:http + pg server doing the same persistent work.
// Both run in turn against fresh databases, with the same load (keep-alive clients, bounded request counts).
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.js";
import { startPlatform } from "../src/platform-process.js";
import { startBareServer } from "./bare-server.js";
import { type LoadResult, runLoad } from "./load.js";
import { freshDatabase } from "./support.js";

const SESSIONS = 32;
const CONCURRENCY = 32;
const INGEST_REQUESTS = 4000;
const READ_REQUESTS = 4000;
const WARMUP = 400;

const message = (i: number) =>
  JSON.stringify({ events: [{ type: "user.message", content: [{ type: "text", text: `message ${i}` }] }] });

interface Target {
  url: string;
  ingestPath(sessionId: string): string;
  readPath(sessionId: string): string;
  headers: Record<string, string>;
}

async function measure(target: Target, sessions: string[]): Promise<{ ingest: LoadResult; read: LoadResult }> {
  const ingest = (i: number) => ({
    method: "POST",
    path: target.ingestPath(sessions[i % sessions.length]!),
    body: message(i),
    headers: target.headers,
  });
  await runLoad(target.url, WARMUP, CONCURRENCY, ingest);
  const ingestResult = await runLoad(target.url, INGEST_REQUESTS, CONCURRENCY, ingest);
  const read = (i: number) => ({
    method: "GET",
    path: target.readPath(sessions[i % sessions.length]!),
    headers: target.headers,
  });
  await runLoad(target.url, WARMUP, CONCURRENCY, read);
  return { ingest: ingestResult, read: await runLoad(target.url, READ_REQUESTS, CONCURRENCY, read) };
}

async function platformRun(): Promise<{ ingest: LoadResult; read: LoadResult }> {
  const database = await freshDatabase();
  if (!database) throw new Error("the baseline comparison needs a PostgreSQL server (BENCH_DATABASE_URL)");
  const key = `ap_bench_${randomBytes(16).toString("hex")}`;
  // ROLE=api: ingestion is measured alone; the work items it records stay queued, as they do for the bare server.
  const platform = await startPlatform(
    loadConfig({
      DATABASE_URL: database.url,
      SECRETS_KEY: randomBytes(32).toString("base64"),
      DATA_DIR: mkdtempSync(join(tmpdir(), "ap-baseline-")),
      PORT: "0",
      ROLE: "api",
      BOOTSTRAP_API_KEY: key,
      LOG_LEVEL: "warn",
    }),
  );
  try {
    const headers = { authorization: `Bearer ${key}` };
    const base = `/v1/projects/${platform.bootstrap!.projectId}`;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(platform.url + path, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { id: string };
    };
    const agent = await post(`${base}/agents`, { name: "Bench", model: "builtin/echo" });
    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS; i++) sessions.push((await post(`${base}/sessions`, { agent: agent.id })).id);
    return await measure(
      {
        url: platform.url!,
        headers,
        ingestPath: (id) => `${base}/sessions/${id}/events`,
        readPath: (id) => `${base}/sessions/${id}/events?afterSeq=0&limit=100`,
      },
      sessions,
    );
  } finally {
    await platform.close();
    await database.drop();
  }
}

async function bareRun(): Promise<{ ingest: LoadResult; read: LoadResult }> {
  const database = await freshDatabase();
  if (!database) throw new Error("the baseline comparison needs a PostgreSQL server (BENCH_DATABASE_URL)");
  // Same schema as the platform: migrate through a platform start, then stop it before the bare server runs.
  const schemaOnly = await startPlatform(
    loadConfig({
      DATABASE_URL: database.url,
      SECRETS_KEY: randomBytes(32).toString("base64"),
      DATA_DIR: mkdtempSync(join(tmpdir(), "ap-baseline-")),
      PORT: "0",
      ROLE: "worker",
      LOG_LEVEL: "warn",
      WORKER_CONCURRENCY: "1",
    }),
  );
  const { pool } = schemaOnly.ctx.db;
  const sessions: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const id = `sess_bare_${i}`;
    await pool.query(
      `INSERT INTO sessions (id, "projectId", "workspaceId", "agentId", "agentVersion", "vaultIds") VALUES ($1, 'p', 'w', 'a', 1, '{}')`,
      [id],
    );
    sessions.push(id);
  }
  await schemaOnly.close();
  const bare = await startBareServer(database.url);
  try {
    return await measure(
      {
        url: bare.url,
        headers: {},
        ingestPath: (id) => `/sessions/${id}/events`,
        readPath: (id) => `/sessions/${id}/events?afterSeq=0&limit=100`,
      },
      sessions,
    );
  } finally {
    await bare.close();
    await database.drop();
  }
}

const fmt = (r: LoadResult) =>
  `${r.perSecond.toFixed(0).padStart(7)} req/s   median ${r.medianMs.toFixed(2).padStart(6)} ms   p95 ${r.p95Ms.toFixed(2).padStart(6)} ms`;

const bare = await bareRun();
const platform = await platformRun();
const lines = [
  "",
  `Platform vs bare node:http + pg (${CONCURRENCY} keep-alive clients, ${SESSIONS} sessions)`,
  `  ingest 1 event   bare      ${fmt(bare.ingest)}`,
  `                   platform  ${fmt(platform.ingest)}   ${(bare.ingest.perSecond / platform.ingest.perSecond).toFixed(2)}× the bare cost`,
  `  read 100 events  bare      ${fmt(bare.read)}`,
  `                   platform  ${fmt(platform.read)}   ${(bare.read.perSecond / platform.read.perSecond).toFixed(2)}× the bare cost`,
  "",
];
process.stdout.write(`${lines.join("\n")}\n`);
process.exit(0);
