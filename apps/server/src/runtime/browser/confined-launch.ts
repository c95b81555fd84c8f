import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type CallCgroup, createCallCgroup, detectCgroups, runBwrapProbe } from "../sandbox/index.js";
import type { BrowserBoundarySettings } from "./browser-settings.js";

/** Inside the boundary the egress proxy's socket is bridged to this loopback port (the browser's only way out). */
const PROXY_PORT = 3128;
export const CONFINED_PROXY_SERVER = `http://127.0.0.1:${PROXY_PORT}`;

/** The only environment Chromium gets: nothing of the server's (its keys, database URL…) is passed on. */
export function browserEnvironment(home: string): Record<string, string> {
  return { PATH: "/usr/bin:/bin", HOME: home, TMPDIR: "/tmp", LANG: "C.UTF-8" };
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * bubblewrap arguments of a browser: every namespace of its own (user, pid, mount, network, ipc, uts, cgroup), no
 * capabilities, read-only system folders and the few files of /etc Chromium reads, a private size-bounded /tmp as its
 * only writable place, and the egress proxy's socket as its only way out. User namespaces stay allowed inside:
 * Chromium's own sandbox is built from them (its seccomp filter then forbids them to the renderers).
 */
export function browserBwrapArgs(
  executablePath: string,
  proxySocket: string | null,
  tmpBytes: number,
  uid: number,
): string[] {
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--uid", String(uid)];
  args.push("--ro-bind", "/usr", "/usr");
  for (const [link, target] of [
    ["usr/bin", "/bin"],
    ["usr/sbin", "/sbin"],
    ["usr/lib", "/lib"],
    ["usr/lib64", "/lib64"],
  ] as const) {
    args.push("--symlink", link, target);
  }
  for (const path of [
    "/etc/alternatives",
    "/etc/fonts",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/chromium",
    "/etc/chromium.d",
    "/etc/ld.so.cache",
    "/etc/localtime",
  ]) {
    args.push("--ro-bind-try", path, path);
  }
  if (!executablePath.startsWith("/usr/")) {
    const folder = dirname(executablePath);
    args.push("--ro-bind", folder, folder);
  }
  args.push("--size", String(tmpBytes), "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev");
  if (proxySocket) args.push("--bind", proxySocket, "/run/egress.sock");
  args.push("--remount-ro", "/", "--chdir", "/tmp", "--clearenv");
  for (const [name, value] of Object.entries(browserEnvironment("/tmp"))) args.push("--setenv", name, value);
  return args;
}

/** A browser's way into its boundary: the script Playwright starts as "Chromium", and what to clean up after it. */
export interface ConfinedLaunch {
  /** Executable for Playwright's `launch` (it passes Chromium's arguments and its pipe on to the confined Chromium). */
  executablePath: string;
  /** Where the egress proxy must listen (bound into the boundary). */
  proxySocket: string;
  /** Whether the browser was stopped by its memory limit (known where cgroups are delegated). */
  outOfMemory(): Promise<boolean>;
  /** Kills whatever is left of the browser and removes its files. */
  dispose(): Promise<void>;
}

/** Who the browser runs as: the configured unprivileged user when the server is root, else the server's own user. */
export function browserOwner(settings: BrowserBoundarySettings): { uid: number; gid: number } {
  if (process.getuid?.() === 0) return { uid: settings.uid, gid: settings.gid };
  return { uid: process.getuid?.() ?? settings.uid, gid: process.getgid?.() ?? settings.gid };
}

const sandboxUid = (settings: BrowserBoundarySettings) => browserOwner(settings).uid;

let cgroupLayout: ReturnType<typeof detectCgroups> | undefined;

/**
 * Prepares one browser's boundary: a host folder (launch script, proxy socket), a cgroup with its memory and process
 * limits where cgroups are delegated (else `prlimit --nproc` for the non-root user), and the launch script: it joins the
 * cgroup, drops to the unprivileged user, enters bubblewrap, bridges the proxy socket to a loopback port, then runs
 * Chromium with the arguments Playwright gave.
 */
export async function prepareConfinedLaunch(
  settings: BrowserBoundarySettings,
  chromiumPath: string,
  id: string,
): Promise<ConfinedLaunch> {
  await mkdir(settings.root, { recursive: true, mode: 0o711 });
  await chmod(settings.root, 0o711);
  const dir = join(settings.root, id);
  await mkdir(dir, { mode: 0o711 });
  cgroupLayout ??= detectCgroups();
  const layout = await cgroupLayout;
  let cgroup: CallCgroup | null = null;
  try {
    if (layout) {
      cgroup = await createCallCgroup(
        layout,
        `browser-${id}`,
        { memoryBytes: settings.memoryBytes, pids: settings.maxProcesses, cpus: 1 },
        settings,
      ).catch(() => null);
    }
    const root = process.getuid?.() === 0;
    const tmpBytes = Math.floor(settings.memoryBytes / 2);
    const proxySocket = join(dir, "egress.sock");
    const inner = [
      `socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/run/egress.sock </dev/null >/dev/null 2>&1 3>&- 4>&- &`,
      `for _ in $(seq 1 200); do (exec 5<>/dev/tcp/127.0.0.1/${PROXY_PORT}) 2>/dev/null && break; sleep 0.01; done`,
      // Without cgroups the processes are bounded per user instead (Chromium reserves far more address space than it
      // uses, so RLIMIT_AS cannot stand in for a memory limit: the memory is bounded only where cgroups are delegated).
      `exec ${cgroup ? "" : `prlimit --nproc=${settings.maxProcesses} -- `}"$0" "$@"`,
    ].join("\n");
    const enter = [
      // The shell exports a PWD of its own: the boundary's entry starts from an empty environment.
      "env",
      "-i",
      ...(root ? ["setpriv", `--reuid=${settings.uid}`, `--regid=${settings.gid}`, "--clear-groups"] : []),
      settings.bwrapPath!,
      ...browserBwrapArgs(chromiumPath, proxySocket, tmpBytes, sandboxUid(settings)),
      "--",
      "/bin/bash",
      "-c",
      inner,
      chromiumPath,
    ];
    const join_ = cgroup ? cgroup.procs.map((file) => `echo $$ > ${quote(file)} || exit 70\n`).join("") : "";
    const script = `#!/bin/sh\n${join_}exec ${enter.map(quote).join(" ")} "$@"\n`;
    const executablePath = join(dir, "chromium");
    await writeFile(executablePath, script, { mode: 0o700 });
    return {
      executablePath,
      proxySocket,
      async outOfMemory() {
        return cgroup ? (await cgroup.events()).oomKilled : false;
      },
      async dispose() {
        if (cgroup) {
          await cgroup.kill();
          await cgroup.remove();
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await cgroup?.remove();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

export type BoundaryProbe = { ok: true } | { ok: false; reason: string };

const ENABLE =
  "The browser runs inside a bubblewrap boundary (Debian: apt-get install bubblewrap socat) with user namespaces " +
  "enabled (in a container: --security-opt seccomp=unconfined --security-opt apparmor=unconfined, or --privileged; " +
  "on the host: sysctl -w user.max_user_namespaces=15000). To run it unconfined anyway, set BROWSER_CONFINEMENT=none " +
  "(see docs/operating.md).";

/** Starts `true` in a browser boundary as browsers are started: whether this host can confine a browser at all. */
export async function probeBoundary(settings: BrowserBoundarySettings): Promise<BoundaryProbe> {
  if (!settings.bwrapPath) return { ok: false, reason: `No bubblewrap (bwrap) was found. ${ENABLE}` };
  const root = process.getuid?.() === 0;
  const args = [...browserBwrapArgs("/usr/bin/true", null, 1024 * 1024, sandboxUid(settings)), "--", "true"];
  const run = await runBwrapProbe(
    settings.bwrapPath,
    args,
    root ? { uid: settings.uid, gid: settings.gid } : undefined,
  );
  if (!run.started) return { ok: false, reason: `bubblewrap could not be started: ${run.error}. ${ENABLE}` };
  return run.code === 0
    ? { ok: true }
    : { ok: false, reason: `bubblewrap cannot confine the browser here (${run.stderr.trim() || run.code}). ${ENABLE}` };
}
