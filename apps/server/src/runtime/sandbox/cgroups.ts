import { chown, mkdir, readFile, rmdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Per-call cgroups where the host delegates them (v2 with `pids`, `memory` and `cpu` enabled for our subtree, or v1
 * with those hierarchies writable): exact pids, memory and CPU limits for the whole process tree of a call, and a
 * kill of the whole tree. Where they are not delegated, calls are limited by prlimit and the timeout instead.
 */
export interface CallCgroup {
  /** Files the call's first process writes its pid to (they are made writable by the sandbox user). */
  procs: string[];
  /** What stopped the call, read after it ended. */
  events(): Promise<{ oomKilled: boolean; pidsLimited: boolean }>;
  kill(): Promise<void>;
  remove(): Promise<void>;
}

export interface CgroupLimits {
  memoryBytes: number;
  pids: number;
  cpus: number;
}

type Layout = { version: 2; base: string } | { version: 1; pids: string; memory: string; cpu: string | null };

const V2 = "/sys/fs/cgroup";
const SUBTREE = "agent-platform";

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function tryWrite(path: string, value: string): Promise<boolean> {
  return writeFile(path, value).then(
    () => true,
    () => false,
  );
}

/** Finds a usable layout once per process (creating our subtree); null when cgroups are not delegated. */
export async function detectCgroups(): Promise<Layout | null> {
  try {
    if (await exists(join(V2, "cgroup.controllers"))) {
      const base = join(V2, SUBTREE);
      await mkdir(base, { recursive: true });
      const wanted = ["pids", "memory", "cpu"];
      const available = (await readFile(join(V2, "cgroup.controllers"), "utf8")).split(/\s+/);
      if (!["pids", "memory"].every((c) => available.includes(c))) return null;
      const controllers = wanted
        .filter((c) => available.includes(c))
        .map((c) => `+${c}`)
        .join(" ");
      await tryWrite(join(V2, "cgroup.subtree_control"), controllers);
      await tryWrite(join(base, "cgroup.subtree_control"), controllers);
      const enabled = (await readFile(join(base, "cgroup.subtree_control"), "utf8")).split(/\s+/);
      return enabled.includes("pids") && enabled.includes("memory") ? { version: 2, base } : null;
    }
    const pids = join(V2, "pids", SUBTREE);
    const memory = join(V2, "memory", SUBTREE);
    await mkdir(pids, { recursive: true });
    await mkdir(memory, { recursive: true });
    const cpuRoot = join(V2, "cpu");
    let cpu: string | null = null;
    if (await exists(join(cpuRoot, "cpu.cfs_quota_us"))) {
      cpu = join(cpuRoot, SUBTREE);
      await mkdir(cpu, { recursive: true }).catch(() => {
        cpu = null;
      });
    }
    return { version: 1, pids, memory, cpu };
  } catch {
    return null;
  }
}

const CPU_PERIOD_US = 100_000;

/** A cgroup can be removed once its last process is reaped, which may take the kernel a moment after a kill. */
async function removeDirs(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const removed = await rmdir(dir).then(
        () => true,
        (error: NodeJS.ErrnoException) => error.code === "ENOENT",
      );
      if (removed) break;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

export async function createCallCgroup(
  layout: Layout,
  name: string,
  limits: CgroupLimits,
  owner: { uid: number; gid: number },
): Promise<CallCgroup> {
  const quota = String(Math.max(1_000, Math.round(limits.cpus * CPU_PERIOD_US)));
  if (layout.version === 2) {
    const dir = join(layout.base, name);
    await mkdir(dir);
    await writeFile(join(dir, "pids.max"), String(limits.pids));
    await writeFile(join(dir, "memory.max"), String(limits.memoryBytes));
    await tryWrite(join(dir, "memory.swap.max"), "0");
    await tryWrite(join(dir, "cpu.max"), `${quota} ${CPU_PERIOD_US}`);
    const procs = join(dir, "cgroup.procs");
    await chown(procs, owner.uid, owner.gid);
    return {
      procs: [procs],
      async events() {
        const memory = await readFile(join(dir, "memory.events"), "utf8").catch(() => "");
        const pids = await readFile(join(dir, "pids.events"), "utf8").catch(() => "");
        return { oomKilled: /oom_kill [1-9]/.test(memory), pidsLimited: /max [1-9]/.test(pids) };
      },
      async kill() {
        await tryWrite(join(dir, "cgroup.kill"), "1");
      },
      remove: () => removeDirs([dir]),
    };
  }
  const dirs = [join(layout.pids, name), join(layout.memory, name), ...(layout.cpu ? [join(layout.cpu, name)] : [])];
  for (const dir of dirs) await mkdir(dir);
  const [pidsDir, memoryDir, cpuDir] = dirs as [string, string, string | undefined];
  await writeFile(join(pidsDir, "pids.max"), String(limits.pids));
  await writeFile(join(memoryDir, "memory.limit_in_bytes"), String(limits.memoryBytes));
  await tryWrite(join(memoryDir, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
  if (cpuDir) {
    await tryWrite(join(cpuDir, "cpu.cfs_period_us"), String(CPU_PERIOD_US));
    await tryWrite(join(cpuDir, "cpu.cfs_quota_us"), quota);
  }
  const procs = dirs.map((dir) => join(dir, "cgroup.procs"));
  for (const file of procs) await chown(file, owner.uid, owner.gid);
  return {
    procs,
    async events() {
      const oom = await readFile(join(memoryDir, "memory.oom_control"), "utf8").catch(() => "");
      const pids = await readFile(join(pidsDir, "pids.events"), "utf8").catch(() => "");
      return {
        oomKilled: /oom_kill [1-9]/.test(oom),
        pidsLimited: /max [1-9]/.test(pids),
      };
    },
    async kill() {
      const listed = await readFile(join(pidsDir, "cgroup.procs"), "utf8").catch(() => "");
      for (const pid of listed.split(/\s+/).filter(Boolean)) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // already gone
        }
      }
    },
    remove: () => removeDirs(dirs),
  };
}
