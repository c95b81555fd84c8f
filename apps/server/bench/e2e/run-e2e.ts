// The end-to-end workloads of `pnpm bench`, as a user sees them: the platform (built, `ROLE=all`, default settings) and
// a bare node:http + pg server doing the same persistent work, each in its own process, on databases of their own, with
// an instant OpenAI-compatible fake model in a third process. Every figure is printed with its ratio to the bare server
// measured in the same run.
import { percentile } from "../support.js";
import { printRatioTable, type Server, startBenchServers } from "./bench-servers.js";
import type { DatabaseCost } from "./database-cost.js";
import { cpuTimeMs, peakRssMiB } from "./processes.js";
import { HttpClient, prepareLog } from "./targets.js";

const SECONDS = Number(process.env.BENCH_E2E_SECONDS ?? 2);
/**
 * Each workload runs this many times on each server, alternating (bare, platform, bare, …), and the median of the
 * rounds' ratios is printed: a shared machine's speed drifts by ±20 % within a minute, and one pair of runs measured
 * that drift as often as the servers.
 */
const ROUNDS = Number(process.env.BENCH_E2E_ROUNDS ?? 3);
/** Seconds of uncounted rounds per workload and server before the counted ones (`BENCH_E2E_WARMUP_SECONDS`). */
const WARMUP = Number(process.env.BENCH_E2E_WARMUP_SECONDS ?? 10);
/** Workloads to run (`BENCH_E2E_ONLY=W1,W3`), all by default. */
const ONLY = process.env.BENCH_E2E_ONLY?.split(",") ?? ["W1", "W2", "W3", "W4"];

/**
 * A workload's figure, with the server process's CPU time (user + system) per operation while it was measured, and
 * its database's: the backends' CPU time and the WAL bytes written for it, per operation (null where not measurable).
 */
interface Measured {
  value: number;
  cpuMsPerOp: number;
  pgCpuMsPerOp: number | null;
  walBytesPerOp: number | null;
  /** Transactions that wrote to the database, per operation (a statement each, outside explicit transactions). */
  writesPerOp: number | null;
}

const cpuOf = (server: Server) => cpuTimeMs(server.process.child.pid!);

/** Starts measuring a server's CPU and its database's; `done(ops)` returns them per operation. */
async function meter(server: Server): Promise<{ done(ops: number): Promise<Omit<Measured, "value">> }> {
  const cpu = cpuOf(server);
  const db = await server.db.mark();
  return {
    async done(ops) {
      const cpuMsPerOp = (cpuOf(server) - cpu) / ops;
      const cost: DatabaseCost = await server.db.since(db);
      return {
        cpuMsPerOp,
        pgCpuMsPerOp: cost.cpuMs === null ? null : cost.cpuMs / ops,
        walBytesPerOp: cost.walBytes === null ? null : cost.walBytes / ops,
        writesPerOp: cost.writes === null ? null : cost.writes / ops,
      };
    },
  };
}

/** Runs `clients` loops of `step` for `SECONDS` (after a one-second warm-up) and returns completed steps per second. */
async function throughput(server: Server, clients: number, step: (client: number) => Promise<void>): Promise<Measured> {
  const run = async (ms: number) => {
    const until = performance.now() + ms;
    let done = 0;
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        while (performance.now() < until) {
          await step(client);
          done++;
        }
      }),
    );
    return done;
  };
  await run(1000);
  const measuring = await meter(server);
  const started = performance.now();
  const done = await run(SECONDS * 1000);
  const value = done / ((performance.now() - started) / 1000);
  return { value, ...(await measuring.done(done)) };
}

async function w1CreateAgents(server: Server): Promise<Measured> {
  const client = new HttpClient(server.process.url, server.headers, 16);
  let i = 0;
  try {
    return await throughput(server, 16, async () => {
      await server.target.createAgent(client, i++);
    });
  } finally {
    client.close();
  }
}

async function oneTurn(server: Server, client: HttpClient, agentId: string, i: number): Promise<void> {
  const session = await server.target.createSession(client, agentId);
  await server.target.turn(client, session, `Hello ${i}`);
}

async function w2TurnLatency(server: Server, agentId: string): Promise<Measured> {
  const client = new HttpClient(server.process.url, server.headers, 1);
  try {
    for (let i = 0; i < 20; i++) await oneTurn(server, client, agentId, i);
    const times: number[] = [];
    const measuring = await meter(server);
    const until = performance.now() + SECONDS * 1000;
    for (let i = 0; performance.now() < until || times.length < 50; i++) {
      const started = performance.now();
      await oneTurn(server, client, agentId, i);
      times.push(performance.now() - started);
    }
    return { value: percentile(times, 50), ...(await measuring.done(times.length)) };
  } finally {
    client.close();
  }
}

async function w3Turns(server: Server, agentId: string): Promise<Measured> {
  const client = new HttpClient(server.process.url, server.headers, 32);
  let i = 0;
  try {
    return await throughput(server, 32, () => oneTurn(server, client, agentId, i++));
  } finally {
    client.close();
  }
}

/** Builds a session with a 100-turn log for W4 and returns it with the `seq` of its last entry. */
function w4Prepare(server: Server, agentId: string): Promise<{ session: string; lastSeq: number }> {
  return prepareLog(server.target, server.process.url, server.headers, agentId);
}

async function w4ReadLog(server: Server, log: { session: string; lastSeq: number }): Promise<Measured> {
  const client = new HttpClient(server.process.url, server.headers, 16);
  try {
    return await throughput(server, 16, async () => {
      const last = await server.target.readLog(client, log.session);
      if (last !== log.lastSeq)
        throw new Error(`${server.target.name}: read the log up to seq ${last}, expected ${log.lastSeq}`);
    });
  } finally {
    client.close();
  }
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const fixed = (n: number, digits = 0) => n.toFixed(digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

// `BENCH_AB_DIST=dist-before`: another build of the platform (a copy of `dist` made before a change) takes the bare
// server's place, so the ratios are an A/B of the change in alternating rounds.
const servers = await startBenchServers("e2e", {
  split: process.env.BENCH_SPLIT === "1",
  abDist: process.env.BENCH_AB_DIST,
});
const { platform, bare } = servers;
const platformProcess = platform.process;
const bareProcess = bare.process;
try {
  out(
    `end to end · platform ${platformProcess.url} (ROLE=all, defaults) · bare ${bareProcess.url} · ${ROUNDS} alternating rounds of ${SECONDS} s each, after ${WARMUP} s of uncounted rounds per workload and server`,
  );

  const agentOf = async (server: Server) => {
    const client = new HttpClient(server.process.url, server.headers, 1);
    const id = await server.target.createAgent(client, 0);
    client.close();
    return id;
  };
  const agents = new Map([
    [platform, await agentOf(platform)],
    [bare, await agentOf(bare)],
  ]);
  const rows: string[][] = [];
  const median = (values: number[]) => percentile(values, 50);
  const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 2)} ms`;
  const known = (values: (number | null)[]) => (values.every((v) => v !== null) ? median(values as number[]) : null);
  const msOrUnknown = (values: (number | null)[]) => {
    const m = known(values);
    return m === null ? "?" : ms(m);
  };
  const countOrUnknown = (values: (number | null)[]) => {
    const m = known(values);
    return m === null ? "?" : m.toFixed(1);
  };
  const bytesOrUnknown = (values: (number | null)[]) => {
    const m = known(values);
    return m === null ? "?" : `${fixed(m)} B`;
  };
  // The ratio is always platform ÷ bare: for rates higher is better, for the latency and the CPU lower is.
  const measure = async (label: string, unit: string, work: (server: Server, agentId: string) => Promise<Measured>) => {
    if (!ONLY.includes(label.slice(0, 2))) return;
    process.stderr.write(`${label}…\n`);
    const b: Measured[] = [];
    const p: Measured[] = [];
    // Uncounted rounds on each for `WARMUP` seconds first: a server that has just started is slower than one that has
    // run (new pooled connections, each preparing its statements; code not yet optimised by V8's JIT, which for the
    // platform took about 2,000 lone turns, docs/performance.md). The first of them is printed, as the cold figure.
    const cold = [await work(bare, agents.get(bare)!), await work(platform, agents.get(platform)!)] as const;
    for (const server of [bare, platform]) {
      const until = performance.now() + WARMUP * 1000;
      while (performance.now() < until) await work(server, agents.get(server)!);
    }
    for (let round = 0; round < ROUNDS; round++) {
      b.push(await work(bare, agents.get(bare)!));
      p.push(await work(platform, agents.get(platform)!));
    }
    const ratios = p.map((m, i) => m.value / b[i]!.value);
    const cpuRatios = p.map((m, i) => m.cpuMsPerOp / b[i]!.cpuMsPerOp);
    const values = (list: Measured[]) =>
      list.map(
        (m) =>
          `${fixed(m.value, 1)} (${m.cpuMsPerOp.toFixed(3)} ms CPU, PostgreSQL ${m.pgCpuMsPerOp?.toFixed(3) ?? "?"} ms, ${
            m.walBytesPerOp === null ? "?" : fixed(m.walBytesPerOp)
          } B WAL)`,
      );
    process.stderr.write(`  bare ${values(b).join(", ")} · platform ${values(p).join(", ")}\n`);
    const digits = unit === "ms" ? 1 : 0;
    const spread = ROUNDS > 1 ? ` (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})` : "";
    rows.push([
      label,
      `${fixed(median(p.map((m) => m.value)), digits)} ${unit}`,
      `${fixed(median(b.map((m) => m.value)), digits)} ${unit}`,
      `${median(ratios).toFixed(2)}×${spread}`,
      `${ms(median(p.map((m) => m.cpuMsPerOp)))} · ${ms(median(b.map((m) => m.cpuMsPerOp)))} · ${median(cpuRatios).toFixed(1)}×`,
      `${msOrUnknown(p.map((m) => m.pgCpuMsPerOp))} · ${msOrUnknown(b.map((m) => m.pgCpuMsPerOp))}`,
      `${bytesOrUnknown(p.map((m) => m.walBytesPerOp))} · ${bytesOrUnknown(b.map((m) => m.walBytesPerOp))}`,
      `${countOrUnknown(p.map((m) => m.writesPerOp))} · ${countOrUnknown(b.map((m) => m.writesPerOp))}`,
      `${fixed(cold[1].value, digits)} · ${fixed(cold[0].value, digits)} · ${(cold[1].value / cold[0].value).toFixed(2)}×`,
    ]);
  };
  await measure("W1 create an agent, 16 concurrent clients", "/s", (s) => w1CreateAgents(s));
  await measure("W2 one turn at concurrency 1 (p50)", "ms", w2TurnLatency);
  await measure("W3 turns, 32 concurrent clients", "turns/s", w3Turns);
  const logs = new Map<Server, { session: string; lastSeq: number }>();
  await measure("W4 read a 100-turn log, 16 concurrent clients", "reads/s", async (server, agentId) => {
    if (!logs.has(server)) logs.set(server, await w4Prepare(server, agentId));
    return w4ReadLog(server, logs.get(server)!);
  });
  rows.push([
    "peak RSS of the server",
    `${fixed(peakRssMiB(platformProcess.child.pid!))} MiB`,
    `${fixed(peakRssMiB(bareProcess.child.pid!))} MiB`,
    "",
    "",
    "",
    "",
    "",
    "",
  ]);
  rows.push([
    "start on a migrated database (spawn → listening)",
    `${fixed(platformProcess.startMs)} ms`,
    `${fixed(bareProcess.startMs)} ms`,
    "",
    "",
    "",
    "",
    "",
    "",
  ]);

  printRatioTable(
    out,
    "Workload",
    [
      "WAL per op: platform · bare",
      "Writing transactions per op: platform · bare",
      "First round from a cold start: platform · bare · ratio",
    ],
    rows,
  );
} finally {
  await servers.stop();
}
