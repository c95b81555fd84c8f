import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SERVER_DIR = join(import.meta.dirname, "..", "..");

/** Spawns a `ROLE=worker` platform process (the build when there is one); resolves once its job runner has started. */
export function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  const built = existsSync(join(SERVER_DIR, "dist", "main.js"));
  const args = built ? ["dist/main.js"] : ["--conditions=agent-platform-source", "--import", "tsx", "src/main.ts"];
  const child = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? "",
      ROLE: "worker",
      DATA_DIR: mkdtempSync(join(tmpdir(), "ap-chaos-worker-")),
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (output.includes("job runner started")) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code ?? signal}) before it started:\n${output}`));
    });
  });
}
