// W1 and W4 of the end-to-end bench (run-e2e.ts) with wrk as the client instead of the bench's own Node.js one: the
// same two servers, started the same way, the same requests, alternating rounds and medians, so the ratio platform ÷
// bare is also measured by a client we did not write (and whose per-byte cost, in C, is small on the shared cores).
// W2 and W3 are not here: a turn follows a Server-Sent Events stream to the turn's end, which wrk cannot do (run-go.ts
// runs all four with a Go client that can).
import { join } from "node:path";
import { printRatioTable, type Server, startBenchServers } from "./bench-servers.js";
import { onPath, runClient } from "./child-tools.js";
import { alternatingRounds, fixed, type Measured, metered } from "./client-rounds.js";
import { HttpClient, prepareLog } from "./targets.js";

/** Measured seconds of each round (`BENCH_WRK_SECONDS`). */
const SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 5);
/** Counted rounds per workload and server, alternating bare, platform, bare, … (`BENCH_WRK_ROUNDS`). */
const ROUNDS = Number(process.env.BENCH_WRK_ROUNDS ?? 3);
/** Seconds of one uncounted round per workload and server before the counted ones (`BENCH_WRK_WARMUP_SECONDS`). */
const WARMUP = Number(process.env.BENCH_WRK_WARMUP_SECONDS ?? 10);
/** Workloads to run (`BENCH_WRK_ONLY=W4`), both by default. */
const ONLY = process.env.BENCH_WRK_ONLY?.split(",") ?? ["W1", "W4"];
const CONNECTIONS = 16;
const POST_JSON = join(import.meta.dirname, "wrk", "post-json.lua");

if (!onPath("wrk")) {
  process.stderr.write("bench:wrk needs wrk on PATH (Debian: apt-get install wrk)\n");
  process.exit(1);
}

/** What a workload asks wrk to send: a path, and a JSON body for a POST. */
interface Request {
  path: string;
  body?: string;
}

async function wrk(args: string[], env: Record<string, string>): Promise<string> {
  // wrk prints its errors (a Lua error, a bad URL) on standard error: both count as its output.
  const { stdout, stderr } = await runClient("wrk", "wrk", args, env);
  return stderr + stdout;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyMs(output: string, percent: number): number {
  const match = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(output);
  return match ? Number(match[1]) * UNIT_MS[match[2]!]! : Number.NaN;
}

/** Runs wrk for `seconds` against `server` and fails on any non-2xx/3xx response or socket error. */
function run(server: Server, request: Request, seconds: number): Promise<Measured> {
  const args = ["-t2", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency"];
  for (const [name, value] of Object.entries(server.headers)) args.push("-H", `${name}: ${value}`);
  if (request.body !== undefined) args.push("-s", POST_JSON);
  args.push(new URL(request.path, server.process.url).toString());
  return metered(server, async () => {
    const output = await wrk(args, request.body === undefined ? {} : { WRK_METHOD: "POST", WRK_BODY: request.body });
    const rate = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
    const total = /^\s*(\d+) requests in /m.exec(output);
    if (!rate || !total) throw new Error(`${server.name}: no "Requests/sec:" in wrk's output:\n${output}`);
    const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
    if (non2xx && Number(non2xx[1]) > 0)
      throw new Error(`${server.name}: ${non2xx[1]} responses were not 2xx or 3xx:\n${output}`);
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
    if (socket?.slice(1).some((n) => Number(n) > 0)) throw new Error(`${server.name}: socket errors:\n${output}`);
    const requests = Number(total[1]);
    return {
      value: Number(rate[1]),
      ops: requests,
      allOps: requests,
      p50Ms: latencyMs(output, 50),
      p99Ms: latencyMs(output, 99),
    };
  });
}

const out = (line: string) => process.stdout.write(`${line}\n`);

// The servers as run-e2e.ts starts them; `BENCH_AB_DIST=dist-before` puts another build of the platform (a copy of
// `dist` made before a change) in the bare server's place, as in run-e2e.ts.
const servers = await startBenchServers("wrk", { abDist: process.env.BENCH_AB_DIST });
const { platform, bare } = servers;
const platformProcess = platform.process;
const bareProcess = bare.process;
try {
  out(
    `wrk · platform ${platformProcess.url} (ROLE=all, defaults) · bare ${bareProcess.url} · wrk -t2 -c${CONNECTIONS} · ${ROUNDS} alternating rounds of ${SECONDS} s each, after ${WARMUP} s of an uncounted round per workload and server`,
  );

  const rows: string[][] = [];

  /** Checks one request with a normal client before wrk repeats it (wrk itself only counts non-2xx/3xx statuses). */
  const check = async (server: Server, request: Request, verify: (status: number, body: string) => void) => {
    const client = new HttpClient(server.process.url, server.headers, 1);
    try {
      const res = await client.request(
        request.body === undefined ? "GET" : "POST",
        request.path,
        request.body === undefined ? undefined : JSON.parse(request.body),
      );
      verify(res.status, res.body);
    } finally {
      client.close();
    }
  };

  const measure = async (label: string, unit: string, requests: Map<Server, Request>) => {
    rows.push(
      await alternatingRounds({
        label,
        unit,
        client: "wrk",
        bare,
        platform,
        warmupSeconds: WARMUP,
        seconds: SECONDS,
        rounds: ROUNDS,
        run: (server, seconds) => run(server, requests.get(server)!, seconds),
      }),
    );
  };

  if (ONLY.includes("W1")) {
    // run-e2e.ts names each agent `Bench agent <i>`; wrk sends one request again and again, so all share a name.
    const agent = { name: "Bench agent", model: "openai-compatible/fake-model", system: "Be brief." };
    const body = JSON.stringify(agent);
    const requests = new Map<Server, Request>(
      [platform, bare].map((s) => [s, { path: s.projectId ? `/v1/projects/${s.projectId}/agents` : "/agents", body }]),
    );
    for (const server of [bare, platform])
      await check(server, requests.get(server)!, (status, text) => {
        const created = JSON.parse(text) as { id?: unknown };
        if (status !== 201 || typeof created.id !== "string")
          throw new Error(`${server.name}: creating an agent answered ${status} ${text.slice(0, 300)}`);
      });
    await measure("W1 create an agent, 16 connections", "/s", requests);
  }

  if (ONLY.includes("W4")) {
    // The log of run-e2e.ts's W4: a session of 100 turns, read whole (one page on the platform, at the same URL).
    const agentOf = async (server: Server) => {
      const client = new HttpClient(server.process.url, server.headers, 1);
      try {
        return await server.target.createAgent(client, 0);
      } finally {
        client.close();
      }
    };
    const logs = new Map<Server, { session: string; lastSeq: number }>();
    for (const server of [platform, bare])
      logs.set(server, await prepareLog(server.target, server.process.url, server.headers, await agentOf(server)));
    const requests = new Map<Server, Request>(
      [platform, bare].map((s) => {
        const session = logs.get(s)!.session;
        return [
          s,
          {
            path: s.projectId
              ? `/v1/projects/${s.projectId}/sessions/${session}/events?afterSeq=0`
              : `/sessions/${session}/events`,
          },
        ];
      }),
    );
    const entries = new Map([platform, bare].map((s) => [s, s.projectId ? 500 : 200]));
    for (const server of [bare, platform])
      await check(server, requests.get(server)!, (status, text) => {
        const page = JSON.parse(text) as { data: { seq: number }[]; hasMore?: boolean };
        const problem =
          status !== 200
            ? `status ${status}`
            : page.data.length !== entries.get(server)
              ? `${page.data.length} entries, expected ${entries.get(server)}`
              : page.data.at(-1)?.seq !== logs.get(server)!.lastSeq
                ? `last seq ${page.data.at(-1)?.seq}, expected ${logs.get(server)!.lastSeq}`
                : server.projectId && page.hasMore !== false
                  ? `hasMore is ${page.hasMore}: the log is more than one page`
                  : null;
        if (problem) throw new Error(`${server.name}: reading the log: ${problem}`);
        process.stderr.write(
          `  ${server.name}'s log: ${page.data.length} entries, ${fixed(Buffer.byteLength(text))} bytes\n`,
        );
      });
    await measure("W4 read a 100-turn log, 16 connections", "reads/s", requests);
  }

  printRatioTable(out, "Workload (wrk)", ["wrk's CPU per op: platform · bare"], rows);
} finally {
  await servers.stop();
}
