// `pnpm bench:compression`: what response compression costs and saves. A 5,000-entry log read in pages of 1,000 and
// the console's first load (index.html, then the scripts and styles it names), each ROUNDS times with
// `Accept-Encoding` identity, gzip and br: bytes on the wire and the server's CPU per read.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { cpuTimeMs, type Started, startPlatformProcess, stopProcess } from "./e2e/processes.js";
import { HttpClient } from "./e2e/targets.js";
import { benchPlatformEnv, freshDatabase } from "./support.js";

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const ENTRIES = 5_000;
const out = (line: string) => process.stdout.write(`${line}\n`);

function get(url: string, headers: Record<string, string>): Promise<{ bytes: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ bytes: body.length, body });
        });
      })
      .on("error", reject);
  });
}

const database = await freshDatabase();
if (!database) throw new Error("the compression bench needs PostgreSQL (set BENCH_DATABASE_URL)");
const dataDir = mkdtempSync(join(tmpdir(), "ap-compression-"));
const key = `ap_bench_${randomBytes(16).toString("hex")}`;
let platform: Started | undefined;
try {
  platform = await startPlatformProcess({
    ...benchPlatformEnv({
      databaseUrl: database.url,
      dataDir,
      apiKey: key,
      modelUrl: "http://127.0.0.1:9",
      separate: true,
    }),
    ROLE: "api",
    LOG_LEVEL: "warn",
  });
  const pid = platform.child.pid!;
  const auth = { authorization: `Bearer ${key}` };
  const setup = new HttpClient(platform.url, auth, 4);
  const project = (JSON.parse((await setup.request("GET", "/v1/platform/context")).body) as { project: { id: string } })
    .project.id;
  const base = `/v1/projects/${project}`;
  const agent = JSON.parse(
    (await setup.request("POST", `${base}/agents`, { name: "Compression bench", model: "builtin/echo" })).body,
  ) as { id: string };
  const session = JSON.parse((await setup.request("POST", `${base}/sessions`, { agent: agent.id })).body) as {
    id: string;
  };
  // User messages of ordinary prose, each different (a log of a real conversation compresses about as well).
  for (let batch = 0; batch < ENTRIES / 50; batch++) {
    const events = Array.from({ length: 50 }, (_, i) => ({
      type: "user.message",
      content: [
        {
          type: "text",
          text: `Message ${batch * 50 + i}: please look at the report for week ${i % 52} and summarise what changed in the ${["sales", "support", "billing", "ops"][i % 4]} figures, with the three largest differences and their likely causes.`,
        },
      ],
    }));
    await setup.request("POST", `${base}/sessions/${session.id}/events`, { events });
  }
  setup.close();

  const html = (await get(`${platform.url}/console`, {})).body.toString("utf8");
  const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  out(
    `compression · a ${ENTRIES}-entry log (5 pages of 1,000) and the console's first load (index.html + ${assets.length} files) · ${ROUNDS} rounds · load ${loadavg()[0]!.toFixed(2)} (shared machine)`,
  );
  for (const encoding of ["identity", "gzip", "br"]) {
    const headers = { ...auth, "accept-encoding": encoding };
    let logBytes = 0;
    const logCpu = cpuTimeMs(pid);
    const logBegun = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      for (let page = 0; page < 5; page++) {
        logBytes += (
          await get(`${platform.url}${base}/sessions/${session.id}/events?afterSeq=${page * 1000}&limit=1000`, headers)
        ).bytes;
      }
    }
    const logMs = (cpuTimeMs(pid) - logCpu) / ROUNDS;
    const logWall = (performance.now() - logBegun) / ROUNDS;
    let consoleBytes = 0;
    const consoleCpu = cpuTimeMs(pid);
    for (let round = 0; round < ROUNDS; round++) {
      consoleBytes += (await get(`${platform.url}/console`, headers)).bytes;
      for (const asset of assets) consoleBytes += (await get(`${platform.url}${asset}`, headers)).bytes;
    }
    const consoleMs = (cpuTimeMs(pid) - consoleCpu) / ROUNDS;
    out(
      `  ${encoding.padEnd(8)} log: ${(logBytes / ROUNDS / 1024).toFixed(0)} KiB, server CPU ${logMs.toFixed(1)} ms, ${logWall.toFixed(0)} ms wall` +
        ` · console first load: ${(consoleBytes / ROUNDS / 1024).toFixed(0)} KiB, server CPU ${consoleMs.toFixed(1)} ms`,
    );
  }
} finally {
  if (platform) await stopProcess(platform.child);
  rmSync(dataDir, { recursive: true, force: true });
  await database.drop();
}
