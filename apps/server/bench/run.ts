// `pnpm bench`: starts the real platform (ROLE=all) on a fresh database, with an instant fake OpenAI-compatible model on
// loopback, and measures the session loop. The platform runs on this thread; the load (HTTP clients, log followers, the
// fake model) runs in a worker thread (bench/client.ts). Every loop is bounded; the run stops by itself and prints a
// table.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { loadConfig } from "../src/config.js";
import { startPlatform } from "../src/platform-process.js";
import { loopMetrics } from "../src/runtime/loop/metrics.js";
import type { Go } from "./client.js";
import { benchPlatformEnv, freshDatabase, ProviderClock } from "./support.js";

const CONCURRENT_SESSIONS = 32;

type FromClient =
  | { kind: "fake"; url: string }
  | { kind: "done"; rows: [string, string][] }
  | { kind: "error"; message: string };

// Shared with the load thread: [0] ms inside the loop's model calls, [1] ms of provider HTTP exchanges, [2] ms inside
// worker passes. The loop's counters are mirrored into it as they change.
const shared = new Float64Array(new SharedArrayBuffer(3 * Float64Array.BYTES_PER_ELEMENT));
function mirror(name: "modelCallMs" | "passMs", index: number): void {
  let value = loopMetrics[name];
  Object.defineProperty(loopMetrics, name, {
    get: () => value,
    set: (next: number) => {
      value = next;
      shared[index] = next;
    },
  });
}
mirror("modelCallMs", 0);
mirror("passMs", 2);

// The thread loads TypeScript through tsx's API (loader hooks of this thread do not apply to workers).
const client = new Worker(
  `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then(({ tsImport }) =>
     tsImport(${JSON.stringify(new URL("./client.ts", import.meta.url).href)}, ${JSON.stringify(import.meta.url)}))`,
  { eval: true, workerData: { shared: shared.buffer } },
);
const messages: FromClient[] = [];
let notify: (() => void) | undefined;
client.on("message", (message: FromClient) => {
  messages.push(message);
  notify?.();
});
let failed: Error | undefined;
client.on("error", (error) => {
  failed = error;
  notify?.();
});
async function next(): Promise<FromClient> {
  for (;;) {
    const message = messages.shift();
    if (message) return message;
    if (failed) throw failed;
    await new Promise<void>((resolve) => {
      notify = resolve;
    });
    notify = undefined;
  }
}

const fake = await next();
if (fake.kind !== "fake") throw new Error("the load thread did not start its fake model");
const database = await freshDatabase();
const dataDir = mkdtempSync(join(tmpdir(), "ap-bench-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
const platform = await startPlatform(
  loadConfig({
    ...benchPlatformEnv({ databaseUrl: database?.url, dataDir, apiKey: key, modelUrl: fake.url }),
    WORKER_CONCURRENCY: String(CONCURRENT_SESSIONS),
  }),
);
const clock = new ProviderClock(new URL(fake.url).origin, (total) => {
  shared[1] = total;
});
const out = (line: string) => process.stdout.write(`${line}\n`);

try {
  out(`platform ${platform.url} · database ${database ? "PostgreSQL (fresh database)" : "embedded PostgreSQL"}`);
  const go: Go = {
    url: platform.url!,
    key,
    projectId: platform.bootstrap!.projectId,
    databaseUrl: platform.ctx.db.pool.options.connectionString!,
    concurrentSessions: CONCURRENT_SESSIONS,
  };
  client.postMessage(go);
  const result = await next();
  if (result.kind === "error") throw new Error(`load thread failed: ${result.message}`);
  if (result.kind !== "done") throw new Error("unexpected message from the load thread");
  const width = Math.max(...result.rows.map(([label]) => label.length));
  out("");
  out(`| ${"Measure".padEnd(width)} | Result |`);
  out(`|${"-".repeat(width + 2)}|--------|`);
  for (const [label, value] of result.rows) out(`| ${label.padEnd(width)} | ${value} |`);
  out("");
} finally {
  clock.close();
  await client.terminate();
  await platform.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
