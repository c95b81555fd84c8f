import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { type CallCgroup, type CgroupLimits, createCallCgroup, detectCgroups } from "./cgroups.js";

/** Where a call runs: the host folders it sees and how it may reach the network. */
export interface SandboxMounts {
  /** Host folder mounted read-write at /workspace (owned by the sandbox user). */
  workspace: string;
  /** Host folder of an installed package layer, mounted read-only at /opt/packages. */
  layer?: string;
  /** Host path of the egress proxy's unix socket (limited networking), mounted at /run/egress.sock. */
  proxySocket?: string;
  /** Extra read-write mount (a package layer being built): host folder → sandbox path. */
  extraBind?: { host: string; sandbox: string };
}

export interface SandboxCall {
  bwrapPath: string;
  uid: number;
  gid: number;
  mounts: SandboxMounts;
  /** bash script run as `bash -c script -- ...args`. */
  script: string;
  args?: string[];
  stdin?: Uint8Array | string;
  env: Record<string, string>;
  limits: CgroupLimits & { fileBytes: number; timeoutMs: number };
  /** Bytes kept of stdout and of stderr; the rest is counted and dropped. */
  maxOutputBytes: number;
  signal?: AbortSignal;
}

export interface SandboxOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  /** Bytes written beyond `maxOutputBytes` (dropped). */
  stdoutDropped: number;
  stderrDropped: number;
  timedOut: boolean;
  aborted: boolean;
  oomKilled: boolean;
  pidsLimited: boolean;
}

const PATH = "/opt/packages/node_modules/.bin:/opt/packages/python/bin:/usr/local/bin:/usr/bin:/bin";
const PROXY_PORT = 3128;

let cgroupLayout: ReturnType<typeof detectCgroups> | undefined;

/** Whether this host delegates cgroups (detected once per process). */
export async function cgroupsAvailable(): Promise<boolean> {
  cgroupLayout ??= detectCgroups();
  return (await cgroupLayout) !== null;
}

/**
 * The bubblewrap arguments of a call: every namespace unshared (no network unless through the proxy socket), no
 * capabilities, no nested user namespaces, read-only system folders, a private /tmp, the workspace as the only
 * writable host folder, a clean environment.
 */
export function bwrapArgs(mounts: SandboxMounts, env: Record<string, string>, tmpBytes: number): string[] {
  const args = [
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/bin",
    "/bin",
    "--symlink",
    "usr/sbin",
    "/sbin",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--ro-bind-try",
    "/etc/alternatives",
    "/etc/alternatives",
    "--ro-bind-try",
    "/etc/ssl",
    "/etc/ssl",
    "--ro-bind-try",
    "/etc/ca-certificates",
    "/etc/ca-certificates",
    "--size",
    String(tmpBytes),
    "--tmpfs",
    "/tmp",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--bind",
    mounts.workspace,
    "/workspace",
  ];
  if (mounts.layer) args.push("--ro-bind", mounts.layer, "/opt/packages");
  if (mounts.extraBind) args.push("--bind", mounts.extraBind.host, mounts.extraBind.sandbox);
  if (mounts.proxySocket) args.push("--bind", mounts.proxySocket, "/run/egress.sock");
  // The sandbox's own root (where the mount points live) is read-only too: /workspace and /tmp are all it can write.
  args.push("--remount-ro", "/", "--chdir", "/workspace", "--clearenv");
  const base: Record<string, string> = {
    PATH,
    HOME: "/tmp",
    TMPDIR: "/tmp",
    LANG: "C.UTF-8",
    NODE_PATH: "/opt/packages/node_modules",
    PYTHONPATH: "/opt/packages/python",
    ...(mounts.proxySocket
      ? {
          HTTP_PROXY: `http://127.0.0.1:${PROXY_PORT}`,
          HTTPS_PROXY: `http://127.0.0.1:${PROXY_PORT}`,
          http_proxy: `http://127.0.0.1:${PROXY_PORT}`,
          https_proxy: `http://127.0.0.1:${PROXY_PORT}`,
          npm_config_proxy: `http://127.0.0.1:${PROXY_PORT}`,
          npm_config_https_proxy: `http://127.0.0.1:${PROXY_PORT}`,
        }
      : {}),
  };
  for (const [name, value] of Object.entries({ ...base, ...env })) args.push("--setenv", name, value);
  return args;
}

/** Inside the sandbox: the proxy bridge (limited networking), the rlimits, then the script. */
function innerCommand(call: SandboxCall, withCgroups: boolean): string[] {
  const rlimits = [
    `--cpu=${Math.ceil(call.limits.timeoutMs / 1000) + 1}`,
    `--fsize=${call.limits.fileBytes}`,
    // Without cgroups, memory and processes are bounded per address space and per user instead.
    ...(withCgroups ? [] : [`--as=${call.limits.memoryBytes}`, `--nproc=${call.limits.pids}`]),
  ];
  const bridge = call.mounts.proxySocket
    ? `socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/run/egress.sock 2>/dev/null &
for _ in $(seq 1 100); do (exec 3<>/dev/tcp/127.0.0.1/${PROXY_PORT}) 2>/dev/null && break; sleep 0.01; done
`
    : "";
  const script = `${bridge}exec prlimit ${rlimits.join(" ")} -- /bin/bash -c "$0" sandbox "$@"`;
  return ["/bin/bash", "-c", script, call.script, ...(call.args ?? [])];
}

class BoundedSink {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  dropped = 0;
  constructor(private readonly max: number) {}
  push(chunk: Buffer): void {
    const room = this.max - this.size;
    if (room <= 0) {
      this.dropped += chunk.length;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
    this.dropped += chunk.length - kept.length;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** Runs one call in a fresh sandbox; resolves when every process of it is gone. */
export async function runSandboxed(call: SandboxCall): Promise<SandboxOutcome> {
  cgroupLayout ??= detectCgroups();
  const layout = await cgroupLayout;
  let cgroup: CallCgroup | null = null;
  if (layout) {
    cgroup = await createCallCgroup(layout, `call-${randomUUID()}`, call.limits, call).catch(() => null);
  }
  const join = cgroup ? cgroup.procs.map((file) => `echo $$ > '${file}' && `).join("") : "";
  const outer = `${join}exec "$0" "$@"`;
  const tmpBytes = Math.min(call.limits.memoryBytes, 256 * 1024 * 1024);
  const child = spawn(
    "/bin/sh",
    ["-c", outer, call.bwrapPath, ...bwrapArgs(call.mounts, call.env, tmpBytes), "--", ...innerCommand(call, !!cgroup)],
    { uid: call.uid, gid: call.gid, env: {}, stdio: ["pipe", "pipe", "pipe"], detached: true },
  );
  const stdout = new BoundedSink(call.maxOutputBytes);
  const stderr = new BoundedSink(call.maxOutputBytes);
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  child.stdin.on("error", () => {});
  if (call.stdin !== undefined) child.stdin.end(call.stdin);
  else child.stdin.end();

  let timedOut = false;
  let aborted = false;
  const killAll = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
    void cgroup?.kill();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killAll();
  }, call.limits.timeoutMs);
  const onAbort = () => {
    aborted = true;
    killAll();
  };
  call.signal?.addEventListener("abort", onAbort, { once: true });

  try {
    const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (code, sig) => resolve([code, sig]));
    });
    const events = cgroup ? await cgroup.events() : { oomKilled: false, pidsLimited: false };
    return {
      exitCode,
      signal,
      stdout: stdout.bytes(),
      stderr: stderr.bytes(),
      stdoutDropped: stdout.dropped,
      stderrDropped: stderr.dropped,
      timedOut,
      aborted,
      ...events,
    };
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener("abort", onAbort);
    if (cgroup) {
      await cgroup.kill();
      await cgroup.remove();
    }
  }
}
