// Helpers of the benches that drive an external client as a child process (run-wrk.ts: wrk; run-go.ts: the Go client).
import { spawn } from "node:child_process";
import { accessSync, constants, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Whether an executable `command` is in one of PATH's directories. */
export function onPath(command: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * CPU time (user + system) of this process's children that have ended and been waited for, in milliseconds (fields 16
 * and 17 of /proc/self/stat): across one run of a client, the client's own (the servers and the fake model run on).
 */
export function endedChildrenCpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * Runs a client to its end and returns its standard output and error; a failed start, or an exit code other than 0,
 * rejects with `name`, the code and what it printed.
 */
export function runClient(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${name} exited with ${code}:\n${stderr}${stdout}`));
    });
  });
}
