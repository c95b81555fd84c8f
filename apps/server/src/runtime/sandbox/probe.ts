import { access, chmod, mkdir } from "node:fs/promises";
import { runBwrapProbe } from "./run-bwrap-probe.js";
import { bwrapArgs } from "./run-sandboxed.js";
import type { SandboxSettings } from "./sandbox-settings.js";

export type ProbeResult = { ok: true } | { ok: false; reason: string };

const ENABLE =
  "Code execution needs bubblewrap (Debian: apt-get install bubblewrap) and user namespaces. In a container, run it " +
  "with `--security-opt seccomp=unconfined --security-opt apparmor=unconfined` (Docker) or `--privileged`, and on " +
  "the host `sysctl -w user.max_user_namespaces=15000` (and `kernel.unprivileged_userns_clone=1` where it exists). " +
  "See docs/environments.md.";

function explain(stderr: string): string {
  if (/No space left on device/i.test(stderr)) {
    return `bubblewrap cannot create user namespaces on this host (user namespaces are disabled or exhausted: ${stderr.trim()}). ${ENABLE}`;
  }
  if (/Operation not permitted|Permission denied/i.test(stderr)) {
    return `bubblewrap is not allowed to create namespaces here (${stderr.trim()}). ${ENABLE}`;
  }
  return `bubblewrap failed: ${stderr.trim() || "no output"}. ${ENABLE}`;
}

/**
 * Decides once whether code execution is available: starts `true` in a sandbox exactly as calls are started. Fails
 * closed: any failure makes every code-execution tool answer the reason (there is no weaker fallback).
 */
export async function probeSandbox(settings: SandboxSettings): Promise<ProbeResult> {
  if (!settings.bwrapPath) return { ok: false, reason: `No bubblewrap (bwrap) was found. ${ENABLE}` };
  try {
    await access(settings.bwrapPath);
    await mkdir(settings.root, { recursive: true, mode: 0o711 });
    await chmod(settings.root, 0o711);
  } catch (error) {
    return { ok: false, reason: `Code execution cannot start: ${(error as Error).message}. ${ENABLE}` };
  }
  const args = [...bwrapArgs({ workspace: settings.root }, {}, 1024 * 1024), "--", "/bin/true"];
  const run = await runBwrapProbe(settings.bwrapPath, args, { uid: settings.uid, gid: settings.gid });
  if (!run.started) return { ok: false, reason: `bubblewrap could not be started: ${run.error}. ${ENABLE}` };
  return run.code === 0 ? { ok: true } : { ok: false, reason: explain(run.stderr) };
}
