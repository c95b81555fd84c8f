import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_EGRESS_ALLOW_CIDRS, type TestApp } from "./test-app.js";

const SERVER_DIR = join(import.meta.dirname, "..", "..");
/** Ends the process on pg's concurrent-query warning (`pg-warning.ts`). */
const PG_WARNING_EXIT = join(import.meta.dirname, "pg-warning-exit.ts");

/**
 * Starts `main.ts` with ROLE=worker against the test app's database, as a real child process; resolves once its job
 * runner has started (or once its output shows `until`). `DEBUG_WORKERS=1` copies its output to stderr.
 */
export async function startWorkerProcess(
  t: TestApp,
  env: Record<string, string> = {},
  until = "job runner started",
): Promise<ChildProcess> {
  const config = t.platform.ctx.config;
  const dataDir = mkdtempSync(join(tmpdir(), "ap-worker-"));
  const args = ["--conditions=agent-platform-source", "--import", "tsx", "--import", PG_WARNING_EXIT, "src/main.ts"];
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? "",
      ROLE: "worker",
      // One process, as the tests kill and restart it (a supervisor is tested on its own: test/reliability/processes.test.ts).
      PROCESSES: "1",
      DATABASE_URL: config.databaseUrl!,
      SECRETS_KEY: config.secretsKey!,
      DATA_DIR: dataDir,
      EGRESS_ALLOW_CIDRS: TEST_EGRESS_ALLOW_CIDRS,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
  let output = "";
  if (process.env.DEBUG_WORKERS) {
    child.stdout!.on("data", (c: Buffer) => process.stderr.write(c));
    child.stderr!.on("data", (c: Buffer) => process.stderr.write(c));
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(until)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  return child;
}

/** SIGTERM, then SIGKILL after 10 s; resolves when the process has exited. */
export function stopWorkerProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** SIGKILL at once (a crash: no shutdown, leases left held); resolves when the process has exited. */
export function killWorkerProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
