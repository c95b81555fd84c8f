// Helpers of the benches that drive an external client as a child process (run-wrk.ts: wrk; run-go.ts: the Go client).
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
