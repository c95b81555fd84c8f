import { spawn } from "node:child_process";

/** How a probe run of bubblewrap ended: it could not be started, or it ran and exited (0 is success). */
export type BwrapProbeRun = { started: false; error: string } | { started: true; code: number | null; stderr: string };

/**
 * Runs bubblewrap once with `args` (a boundary around `true`), as calls or browsers are started, with an empty
 * environment and, when given, as `ids`: whether this host can build such a boundary at all. Killed after 10 s.
 */
export function runBwrapProbe(
  bwrapPath: string,
  args: readonly string[],
  ids?: { uid: number; gid: number },
): Promise<BwrapProbeRun> {
  return new Promise((resolve) => {
    const child = spawn(bwrapPath, args, { ...(ids ?? {}), env: {}, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      resolve({ started: false, error: error.message });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ started: true, code, stderr });
    });
  });
}
