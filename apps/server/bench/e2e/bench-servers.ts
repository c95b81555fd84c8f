// The servers of the end-to-end benches (run-e2e.ts with its own client, run-wrk.ts with wrk), started the same way for
// both: the instant fake model in a process of its own, the built platform on a fresh database (a first start migrates
// it, the second is the one measured), the bare server on another.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchPlatformEnv, freshDatabase, markdownTable } from "../support.js";
import { DatabaseMeter } from "./database-cost.js";
import { type Started, startPlatformProcess, startProcess, stopProcess, TSX } from "./processes.js";
import { bareTarget, HttpClient, platformTarget, type Target } from "./targets.js";

/** A server under test as a workload drives it: its requests, its process, its headers, its database's meter. */
export interface Server {
  name: string;
  target: Target;
  process: Started;
  /** Headers of every request (the API key on the platform). */
  headers: Record<string, string>;
  /** Its database's side: backends' CPU and WAL. */
  db: DatabaseMeter;
  /** The project of its API key, where it is a build of the platform (the platform, or the bare's place in an A/B). */
  projectId?: string;
}

export interface BenchServers {
  /** The platform. */
  platform: Server;
  /** The project of the platform's API key (its routes' `/v1/projects/:projectId`). */
  projectId: string;
  /** The bare server, or another build of the platform in its place (`abDist`). */
  bare: Server;
  /** Closes the meters, stops every process (last started first), drops both databases, removes the data directory. */
  stop(): Promise<void>;
}

export interface BenchServerOptions {
  /** The platform as a `ROLE=api` and a `ROLE=worker` process instead of one `ROLE=all`. */
  split?: boolean;
  /** Another build of the platform (a copy of `dist`) in the bare server's place, for an A/B of a change. */
  abDist?: string;
}

/** Starts the servers of an end-to-end bench; `purpose` names its temporary directory. */
export async function startBenchServers(purpose: string, options: BenchServerOptions = {}): Promise<BenchServers> {
  const platformDb = await freshDatabase();
  const bareDb = await freshDatabase();
  if (!platformDb || !bareDb) throw new Error(`the ${purpose} bench needs PostgreSQL (set BENCH_DATABASE_URL)`);
  const dataDir = mkdtempSync(join(tmpdir(), `ap-bench-${purpose}-`));
  const key = `ap_bench_${randomBytes(16).toString("hex")}`;
  const started: Started[] = [];
  const meters: DatabaseMeter[] = [];
  const stop = async () => {
    for (const m of meters) await m.close();
    for (const p of started.reverse()) await stopProcess(p.child);
    await platformDb.drop();
    await bareDb.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const fake = await startProcess([...TSX, "bench/e2e/fake-model-process.ts"], {}, /LISTENING (\S+)/);
    started.push(fake);
    const platformEnv = benchPlatformEnv({
      databaseUrl: platformDb.url,
      dataDir,
      apiKey: key,
      modelUrl: fake.url,
      separate: true,
    });
    // The first start migrates the database; the second measures a start on an already-migrated one.
    await stopProcess((await startPlatformProcess(platformEnv)).child);
    const platform = await startPlatformProcess(options.split ? { ...platformEnv, ROLE: "api" } : platformEnv);
    started.push(platform);
    if (options.split) started.push(await startPlatformProcess({ ...platformEnv, ROLE: "worker", LOG_LEVEL: "info" }));
    const abEnv = options.abDist && {
      ...platformEnv,
      DATABASE_URL: bareDb.url,
      SECRETS_KEY: randomBytes(32).toString("base64"),
    };
    if (abEnv) await stopProcess((await startPlatformProcess(abEnv, options.abDist)).child);
    const bare = abEnv
      ? await startPlatformProcess(abEnv, options.abDist)
      : await startProcess(
          [...TSX, "bench/e2e/bare-e2e-server.ts"],
          { DATABASE_URL: bareDb.url, MODEL_URL: fake.url },
          /LISTENING (\S+)/,
        );
    started.push(bare);
    const auth = { authorization: `Bearer ${key}` };
    const projectOf = async (url: string) => {
      const client = new HttpClient(url, auth, 1);
      try {
        const context = await client.request("GET", "/v1/platform/context");
        return (JSON.parse(context.body) as { project: { id: string } }).project.id;
      } finally {
        client.close();
      }
    };
    const projectId = await projectOf(platform.url);
    const abProjectId = abEnv ? await projectOf(bare.url) : undefined;
    const platformMeter = await DatabaseMeter.open(platformDb.url);
    meters.push(platformMeter);
    const bareMeter = await DatabaseMeter.open(bareDb.url);
    meters.push(bareMeter);
    return {
      platform: {
        name: "platform",
        target: platformTarget(projectId),
        process: platform,
        headers: auth,
        db: platformMeter,
        projectId,
      },
      projectId,
      bare: {
        name: "bare",
        target: abProjectId ? platformTarget(abProjectId) : bareTarget,
        process: bare,
        headers: abEnv ? auth : {},
        db: bareMeter,
        projectId: abProjectId,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Prints a bench's table: the workload, then the columns every end-to-end bench shows, then its own. */
export function printRatioTable(out: (line: string) => void, first: string, own: string[], rows: string[][]): void {
  const header = [
    first,
    "Platform (median)",
    "Bare server (median)",
    "Ratio: median (range)",
    "Server CPU per operation: platform · bare · ratio",
    "PostgreSQL CPU per op: platform · bare",
    ...own,
  ];
  out("");
  for (const l of markdownTable(header, rows)) out(l);
  out("");
}
