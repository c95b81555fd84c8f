import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const SERVER_DIR = join(import.meta.dirname, "..", "..");
/** Node.js flags that run TypeScript sources. */
export const TSX = ["--conditions=agent-platform-source", "--import", "tsx"];
/** Extra Node.js flags for the platform process (a profiler): `BENCH_PLATFORM_NODE_ARGS`. */
const PLATFORM_NODE_ARGS = process.env.BENCH_PLATFORM_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
/** Extra settings for the platform process, `K=V` separated by spaces (an A/B of a setting): `BENCH_PLATFORM_ENV`. */
const PLATFORM_ENV = Object.fromEntries(
  (process.env.BENCH_PLATFORM_ENV?.split(" ").filter(Boolean) ?? []).map((kv) => [
    kv.slice(0, kv.indexOf("=")),
    kv.slice(kv.indexOf("=") + 1),
  ]),
);

export interface Started {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the line that says it listens. */
  startMs: number;
  /** The process's output so far (its last 200 kB). */
  output(): string;
}

/** Spawns a Node.js process and waits for `pattern` (its first group is the URL) in its output. */
export function startProcess(args: string[], env: Record<string, string>, pattern: RegExp): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
    let resolved = false;
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-200_000);
      const match = resolved ? null : pattern.exec(output);
      if (match) {
        resolved = true;
        clearTimeout(timer);
        resolve({ child, url: match[1]!, startMs: performance.now() - started, output: () => output });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it started:\n${output}`));
    });
  });
}

/** Peak resident memory of a process so far (VmHWM), in MiB. */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** CPU time a process has used so far (user + system), in milliseconds. */
export function cpuTimeMs(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised command name), in clock ticks of 10 ms.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
  });
}

/** The platform as a user runs it: the build (`dist/main.js`) when there is one, else the sources. */
export function startPlatformProcess(env: Record<string, string>, dist = "dist"): Promise<Started> {
  const main = existsSync(join(SERVER_DIR, dist, "main.js")) ? [`${dist}/main.js`] : [...TSX, "src/main.ts"];
  const pattern = env.ROLE === "worker" ? /(worker) started/ : /Base URL:\s+(http\S+)/;
  // One process unless the bench asks for more (`PROCESSES`): its figures are per process.
  return startProcess([...PLATFORM_NODE_ARGS, ...main], { PROCESSES: "1", ...env, ...PLATFORM_ENV }, pattern);
}
