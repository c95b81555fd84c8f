// The measuring part shared by the benches that drive an external client (run-wrk.ts: wrk; run-go.ts: the Go client):
// one client run metered on the server, its database, the client and this process; a workload's warm-up and
// alternating rounds, printed per round and summed up as a row of printRatioTable.
import { percentile } from "../support.js";
import type { Server } from "./bench-servers.js";
import { endedChildrenCpuMs } from "./child-tools.js";
import { cpuTimeMs } from "./processes.js";

/** What one run of a client reports. */
export interface ClientRun {
  /** The workload's figure: a rate, or a latency in ms. */
  value: number;
  /** Operations measured. */
  ops: number;
  /** Operations the server did during the run (the measured ones and any the client made before them). */
  allOps: number;
  p50Ms: number;
  p99Ms: number;
}

/** A client run, with what an operation cost the server, its database, the client and this process. */
export interface Measured extends ClientRun {
  cpuMsPerOp: number;
  pgCpuMsPerOp: number | null;
  clientCpuMsPerOp: number;
  /** This process's (reading the servers' output: the platform logs a line per request at its default level). */
  benchCpuMsPerOp: number;
}

/** Runs a client once against `server` (`client` starts it as a child process and waits for its end), metered. */
export async function metered(server: Server, client: () => Promise<ClientRun>): Promise<Measured> {
  const pid = server.process.child.pid!;
  const cpu = cpuTimeMs(pid);
  const db = await server.db.mark();
  const clientCpu = endedChildrenCpuMs();
  const benchCpu = process.cpuUsage();
  const run = await client();
  const clientCpuMs = endedChildrenCpuMs() - clientCpu;
  const bench = process.cpuUsage(benchCpu);
  const cpuMs = cpuTimeMs(pid) - cpu;
  const cost = await server.db.since(db);
  const ops = run.allOps;
  return {
    ...run,
    cpuMsPerOp: cpuMs / ops,
    pgCpuMsPerOp: cost.cpuMs === null ? null : cost.cpuMs / ops,
    clientCpuMsPerOp: clientCpuMs / ops,
    benchCpuMsPerOp: (bench.user + bench.system) / 1000 / ops,
  };
}

export const fixed = (n: number, digits = 0) => n.toFixed(digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 2)} ms`;
const median = (values: number[]) => percentile(values, 50);

export interface Rounds {
  label: string;
  /** The figure's unit: `ms` (a latency, lower is better) or a rate's. */
  unit: string;
  /** The client's name in the per-round lines. */
  client: string;
  bare: Server;
  platform: Server;
  warmupSeconds: number;
  seconds: number;
  rounds: number;
  run(server: Server, seconds: number): Promise<Measured>;
}

/**
 * One uncounted round per server, then `rounds` alternating rounds (bare, platform, …); prints each round on stderr
 * and returns the workload's row: medians, the median ratio platform ÷ bare and its range, CPU per operation.
 */
export async function alternatingRounds(r: Rounds): Promise<string[]> {
  const digits = r.unit === "ms" ? 2 : 1;
  process.stderr.write(`${r.label}…\n`);
  for (const server of [r.bare, r.platform]) {
    const w = await r.run(server, r.warmupSeconds);
    process.stderr.write(`  warm-up ${server.name}: ${fixed(w.value, digits)} ${r.unit}\n`);
  }
  const b: Measured[] = [];
  const p: Measured[] = [];
  for (let round = 0; round < r.rounds; round++) {
    b.push(await r.run(r.bare, r.seconds));
    p.push(await r.run(r.platform, r.seconds));
  }
  const values = (list: Measured[]) =>
    list.map(
      (m) =>
        `${fixed(m.value, digits)} (${fixed(m.ops)} ops, ${m.cpuMsPerOp.toFixed(3)} ms CPU, PostgreSQL ${m.pgCpuMsPerOp?.toFixed(3) ?? "?"} ms, ${r.client} ${m.clientCpuMsPerOp.toFixed(3)} ms, this process ${m.benchCpuMsPerOp.toFixed(3)} ms; p50 ${m.p50Ms.toFixed(2)} ms, p99 ${m.p99Ms.toFixed(2)} ms)`,
    );
  process.stderr.write(`  bare ${values(b).join(", ")}\n  platform ${values(p).join(", ")}\n`);
  const ratios = p.map((m, i) => m.value / b[i]!.value);
  const cpuRatios = p.map((m, i) => m.cpuMsPerOp / b[i]!.cpuMsPerOp);
  const pg = (list: Measured[]) =>
    list.every((m) => m.pgCpuMsPerOp !== null) ? ms(median(list.map((m) => m.pgCpuMsPerOp!))) : "?";
  const spread = r.rounds > 1 ? ` (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})` : "";
  const figure = (list: Measured[]) => `${fixed(median(list.map((m) => m.value)), r.unit === "ms" ? 2 : 0)} ${r.unit}`;
  return [
    r.label,
    figure(p),
    figure(b),
    `${median(ratios).toFixed(2)}×${spread}`,
    `${ms(median(p.map((m) => m.cpuMsPerOp)))} · ${ms(median(b.map((m) => m.cpuMsPerOp)))} · ${median(cpuRatios).toFixed(1)}×`,
    `${pg(p)} · ${pg(b)}`,
    `${ms(median(p.map((m) => m.clientCpuMsPerOp)))} · ${ms(median(b.map((m) => m.clientCpuMsPerOp)))}`,
  ];
}
