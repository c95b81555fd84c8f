import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support.js";

// A root user's first start with the checkout in a folder other users cannot enter (docs/operating.md, "The embedded
// database"): a real clone of this repository in a mode-0700 folder, installed from the local store, started as root
// with the embedded database — as `/root` is for a root shell in a container or a fresh VM. The tests run as root.
const REPOSITORY = execFileSync("git", ["rev-parse", "--show-toplevel"], {
  cwd: import.meta.dirname,
  encoding: "utf8",
}).trim();

let folder: string;
let checkout: string;
const clusters: string[] = [];

beforeAll(() => {
  expect(process.getuid?.(), "these tests start the platform as root").toBe(0);
  folder = mkdtempSync(join(tmpdir(), "ap-root-only-"));
  chmodSync(folder, 0o700);
  checkout = join(folder, "checkout");
  execFileSync("git", ["clone", "--quiet", REPOSITORY, checkout]);
  execFileSync("pnpm", ["install", "--offline", "--frozen-lockfile"], {
    cwd: checkout,
    env: { ...process.env, COREPACK_INTEGRITY_KEYS: "0" },
    stdio: "ignore",
  });
}, 300_000);
afterAll(() => {
  for (const cluster of clusters) rmSync(cluster, { recursive: true, force: true });
  if (folder) rmSync(folder, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `main.ts` of the clone, as root, with the embedded database under the clone's default DATA_DIR. */
function startClone(port: number, env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, ["--conditions=agent-platform-source", "--import", "tsx", "src/main.ts"], {
    cwd: join(checkout, "apps", "server"),
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      PROCESSES: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => {
    output += c.toString();
  });
  child.stderr!.on("data", (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function running(started: Started): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!started.output().includes("Agent Platform is running")) {
    if (started.child.exitCode !== null) throw new Error(`the platform exited:\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`the platform did not start:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stop(started: Started): Promise<number | null> {
  started.child.kill("SIGTERM");
  return started.exited;
}

describe("the embedded database for root, the checkout in a mode-0700 folder", { timeout: 300_000 }, () => {
  it("starts, serves, and starts again on the same data", async () => {
    const port = await freePort();
    const dataDir = join(checkout, "apps", "server", ".data");
    const first = startClone(port);
    await running(first);
    // The cluster lives where the user `postgres` can reach it, linked from DATA_DIR.
    expect(lstatSync(join(dataDir, "postgres")).isSymbolicLink()).toBe(true);
    const cluster = readlinkSync(join(dataDir, "postgres"));
    clusters.push(cluster);
    expect(cluster).toMatch(/^\/var\/lib\/agent-platform\/clusters\//);
    const key = readFileSync(join(dataDir, "api-key"), "utf8").trim();
    const context = async () =>
      fetch(`http://127.0.0.1:${port}/v1/platform/context`, { headers: { authorization: `Bearer ${key}` } });
    const before = await context();
    expect(before.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect(first.output()).not.toContain("EACCES");
    expect(first.output()).not.toContain("DeprecationWarning");
    expect(await stop(first)).toBe(0);

    const second = startClone(port);
    await running(second);
    const after = await context();
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual(await before.json());
    expect(await stop(second)).toBe(0);
  });

  it("where it cannot run, says so in one line naming the fix, and exits 1", async () => {
    // A cluster already inside a folder the user `postgres` cannot enter (made by an earlier install as another user).
    const dataDir = join(folder, "elsewhere", ".data");
    mkdirSync(join(dataDir, "postgres"), { recursive: true });
    writeFileSync(join(dataDir, "postgres", "PG_VERSION"), "18\n");
    const started = startClone(await freePort(), { DATA_DIR: dataDir });
    expect(await started.exited).toBe(1);
    const lines = started
      .output()
      .split("\n")
      .filter((line) => line.trim().length > 0);
    expect(lines).toEqual([
      `As root the embedded PostgreSQL runs as the OS user \`postgres\`, which cannot enter ${dataDir} where its ` +
        `cluster is: move ${join(dataDir, "postgres")} to a folder it can enter and link it from there, or run the ` +
        "platform as a user other than root, or set DATABASE_URL to a PostgreSQL server, or keep the checkout and " +
        "DATA_DIR in folders the user `postgres` can enter",
    ]);
  });
});
