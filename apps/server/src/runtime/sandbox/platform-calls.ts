import { rm } from "node:fs/promises";
import type { AppContext } from "../../context.js";
import type { Slots } from "../../lib/slots.js";
import { packageEgressBridge } from "./egress-bridge.js";
import { runSandboxed, type SandboxOutcome } from "./run-sandboxed.js";
import type { SandboxSettings } from "./sandbox-settings.js";
import type { SessionDirs } from "./workspace-dirs.js";

/**
 * A platform-side call over a session's workspace (restore, snapshot) with generous fixed limits, in one of the
 * process's sandbox slots.
 */
export async function platformCall(
  settings: SandboxSettings,
  slots: Slots,
  dirs: SessionDirs,
  call: { script: string; stdin?: Uint8Array; maxOutputBytes: number; timeoutMs: number },
): Promise<SandboxOutcome> {
  await slots.take();
  try {
    return await runSandboxed({
      bwrapPath: settings.bwrapPath!,
      uid: settings.uid,
      gid: settings.gid,
      mounts: { workspace: dirs.workspace },
      script: call.script,
      args: [],
      ...(call.stdin ? { stdin: call.stdin } : {}),
      env: {},
      limits: {
        memoryBytes: 1024 * 1024 * 1024,
        pids: 64,
        cpus: 1,
        fileBytes: 4 * 1024 * 1024 * 1024,
        timeoutMs: call.timeoutMs,
      },
      maxOutputBytes: call.maxOutputBytes,
    });
  } finally {
    slots.release();
  }
}

/**
 * Builds a package layer into `target` in a sandbox that reaches the package registries through its egress bridge.
 * Returns null when it succeeded, else why it failed.
 */
export async function buildPackageLayer(
  ctx: AppContext,
  settings: SandboxSettings,
  target: string,
  script: string,
  args: string[],
): Promise<string | null> {
  const proxy = await packageEgressBridge(ctx, settings, target);
  const { path } = proxy;
  try {
    const outcome = await runSandboxed({
      bwrapPath: settings.bwrapPath!,
      uid: settings.uid,
      gid: settings.gid,
      mounts: { workspace: target, extraBind: { host: target, sandbox: "/opt/packages" }, proxySocket: path },
      script,
      args,
      env: {},
      limits: {
        memoryBytes: 2048 * 1024 * 1024,
        pids: 512,
        cpus: 2,
        fileBytes: 1024 * 1024 * 1024,
        timeoutMs: settings.packagesTimeoutMs,
      },
      maxOutputBytes: 16 * 1024,
    });
    if (outcome.exitCode === 0) return null;
    const why = outcome.timedOut ? `timed out after ${settings.packagesTimeoutMs} ms` : `exit code ${outcome.exitCode}`;
    return `${why}: ${outcome.stderr.toString("utf8").trim().slice(-1500)}`;
  } finally {
    await proxy.close();
    await rm(path, { force: true });
  }
}
