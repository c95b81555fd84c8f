import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const SERVER_DIR = join(import.meta.dirname, "..", "..");

export interface Started {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the line that says it listens. */
  startMs: number;
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
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, startMs: performance.now() - started });
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

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
  });
}
