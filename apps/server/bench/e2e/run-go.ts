// The four workloads of the end-to-end bench (run-e2e.ts) with a client in Go (go-client/, the standard library only)
// instead of the bench's own Node.js one: the same two servers, started the same way, the same requests (targets.ts's,
// request for request, each response checked), alternating rounds and medians. wrk (run-wrk.ts) is the independent
// client of W1 and W4; it cannot follow a Server-Sent Events stream to a turn's end, which W2 and W3 need.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { printRatioTable, type Server, startBenchServers } from "./bench-servers.js";
import { onPath, runClient } from "./child-tools.js";
import { alternatingRounds, type Measured, metered } from "./client-rounds.js";
import { HttpClient, prepareLog } from "./targets.js";

/** Measured seconds of each round (`BENCH_GO_SECONDS`). */
const SECONDS = Number(process.env.BENCH_GO_SECONDS ?? 5);
/** Counted rounds per workload and server, alternating bare, platform, bare, … (`BENCH_GO_ROUNDS`). */
const ROUNDS = Number(process.env.BENCH_GO_ROUNDS ?? 3);
/** Seconds of one uncounted round per workload and server before the counted ones (`BENCH_GO_WARMUP_SECONDS`). */
const WARMUP = Number(process.env.BENCH_GO_WARMUP_SECONDS ?? 10);
/** Workloads to run (`BENCH_GO_ONLY=W2,W3`), all four by default. */
const ONLY = process.env.BENCH_GO_ONLY?.split(",") ?? ["W1", "W2", "W3", "W4"];
/**
 * `BENCH_GO_DECODE_EVERY_READ=1`: W4's client decodes every answer whole with encoding/json, instead of comparing it
 * with one it decoded and checked before (about 0.55 ms of the client's CPU per platform read, on the servers' cores).
 */
const DECODE_EVERY_READ = process.env.BENCH_GO_DECODE_EVERY_READ === "1";
const GO_CLIENT = join(import.meta.dirname, "go-client");

type Workload = "W1" | "W2" | "W3" | "W4";
/** Concurrent clients of each workload, as in run-e2e.ts. */
const CLIENTS: Record<Workload, number> = { W1: 16, W2: 1, W3: 32, W4: 16 };

if (!onPath("go")) {
  process.stderr.write("bench:go needs Go on PATH (Debian: apt-get install golang-go)\n");
  process.exit(1);
}

/** Whether a directory, or the nearest one above it that exists (where it would be created), is writable. */
function writable(dir: string): boolean {
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Compiles the Go client into `dir` (offline: it imports the standard library only) and returns the binary's path. */
function buildClient(dir: string): string {
  const env: Record<string, string | undefined> = { ...process.env, GOPROXY: "off", GOFLAGS: "", GO111MODULE: "on" };
  const cache = spawnSync("go", ["env", "GOCACHE"], { encoding: "utf8" }).stdout?.trim() ?? "";
  if (cache === "" || cache === "off" || !writable(cache)) env.GOCACHE = join(tmpdir(), "ap-bench-go-cache");
  const binary = join(dir, "benchclient");
  const built = spawnSync("go", ["build", "-o", binary, "."], { cwd: GO_CLIENT, env, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`go build failed in ${GO_CLIENT}:\n${built.stderr}${built.stdout}`);
  return binary;
}

/** The Go client's line: operations measured, their rate and latencies, and every operation it made (W2's first 20). */
interface ClientResult {
  ops: number;
  seconds: number;
  rate: number;
  p50Ms: number;
  p99Ms: number;
  allOps: number;
}

async function goClient(binary: string, args: string[]): Promise<ClientResult> {
  const { stdout } = await runClient(`the Go client (${args.join(" ")})`, binary, args);
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as ClientResult;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

const binDir = mkdtempSync(join(tmpdir(), "ap-bench-go-bin-"));
process.on("exit", () => rmSync(binDir, { recursive: true, force: true }));
const binary = buildClient(binDir);
// `BENCH_AB_DIST=dist-before`: another build of the platform in the bare server's place, as in run-e2e.ts.
const servers = await startBenchServers("go", { abDist: process.env.BENCH_AB_DIST });
const { platform, bare } = servers;
try {
  out(
    `Go client · platform ${platform.process.url} (ROLE=all, defaults) · bare ${bare.process.url} · W1 16, W2 1, W3 32, W4 16 clients · ${ROUNDS} alternating rounds of ${SECONDS} s each, after ${WARMUP} s of an uncounted round per workload and server`,
  );

  /** The Go client's flags for a workload on a server beyond the common ones (the agent, W4's log). */
  const workloadFlags = new Map<Server, Partial<Record<Workload, string[]>>>();
  if (ONLY.some((w) => w !== "W1")) {
    for (const server of [platform, bare]) {
      const client = new HttpClient(server.process.url, server.headers, 1);
      let agent: string;
      try {
        agent = await server.target.createAgent(client, 0);
      } finally {
        client.close();
      }
      // W4's log: a session of 100 turns built by the same code as run-e2e.ts's and run-wrk.ts's.
      const log = ONLY.includes("W4")
        ? await prepareLog(server.target, server.process.url, server.headers, agent)
        : { session: "", lastSeq: 0 };
      workloadFlags.set(server, {
        W2: ["-agent", agent],
        W3: ["-agent", agent],
        W4: ["-session", log.session, "-last-seq", String(log.lastSeq)],
      });
    }
  }

  const run = (server: Server, workload: Workload, seconds: number): Promise<Measured> => {
    const args = ["-target", server.projectId ? "platform" : "bare", "-url", server.process.url, "-workload", workload];
    args.push("-seconds", String(seconds), "-clients", String(CLIENTS[workload]));
    for (const [name, value] of Object.entries(server.headers)) args.push("-header", `${name}: ${value}`);
    if (server.projectId) args.push("-project", server.projectId);
    args.push(...(workloadFlags.get(server)?.[workload] ?? []));
    if (DECODE_EVERY_READ) args.push("-decode-every-read");
    return metered(server, async () => {
      const result = await goClient(binary, args);
      return { ...result, value: workload === "W2" ? result.p50Ms : result.rate };
    });
  };

  const rows: string[][] = [];
  // The ratio is always platform ÷ bare: for the rates higher is better, for W2's latency lower is.
  const measure = async (workload: Workload, label: string, unit: string) => {
    if (!ONLY.includes(workload)) return;
    rows.push(
      await alternatingRounds({
        label,
        unit,
        client: "Go client",
        bare,
        platform,
        warmupSeconds: WARMUP,
        seconds: SECONDS,
        rounds: ROUNDS,
        run: (server, seconds) => run(server, workload, seconds),
      }),
    );
  };

  await measure("W1", "W1 create an agent, 16 clients", "/s");
  await measure("W2", "W2 one turn at concurrency 1 (p50)", "ms");
  await measure("W3", "W3 turns, 32 clients", "turns/s");
  await measure("W4", "W4 read a 100-turn log, 16 clients", "reads/s");

  printRatioTable(out, "Workload (Go client)", ["Go client's CPU per op: platform · bare"], rows);
} finally {
  await servers.stop();
}
