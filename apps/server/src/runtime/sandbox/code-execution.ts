import { readdir, rm, stat, utimes } from "node:fs/promises";
import type { AgentConfig } from "@agent-platform/contract";
import type { AppContext } from "../../context.js";
import { type ExecutionEnvironment, loadExecutionEnvironment } from "../../environments/index.js";
import { Slots } from "../../lib/slots.js";
import { existingSessionIds, sessionEnvironment } from "../../sessions/index.js";
import { loadWorkspaceSnapshot, readTar, saveWorkspaceSnapshot, workspaceGeneration } from "../../workspaces/index.js";
import type { SessionRuntimeInfo } from "../tools/types.js";
import { callEgressBridge, packageEgressBridge } from "./egress-bridge.js";
import { PackageLayers } from "./package-layers.js";
import { type ProbeResult, probeSandbox } from "./probe.js";
import { runSandboxed, type SandboxMounts, type SandboxOutcome } from "./run-sandboxed.js";
import { SandboxUnavailable } from "./sandbox-errors.js";
import { saveOutputs } from "./sandbox-outputs.js";
import { openSandboxSecrets } from "./sandbox-secrets.js";
import type { SandboxSettings } from "./sandbox-settings.js";
import {
  ensureSessionDirs,
  folderBytes,
  localGeneration,
  type SessionDirs,
  sessionDirs,
  setLocalGeneration,
} from "./workspace-dirs.js";

export { SandboxUnavailable } from "./sandbox-errors.js";

export interface ExecRequest {
  script: string;
  args?: string[];
  stdin?: Uint8Array | string;
  /** Shortens the environment's per-call timeout. */
  timeoutMs?: number;
  maxOutputBytes?: number;
  /** The call may change the workspace (it is saved at the end of the turn). */
  writes: boolean;
}

export interface ExecResult extends SandboxOutcome {
  limits: ExecutionEnvironment["resources"];
  /** Values that must not appear in what the model sees (secret variables), with their names. */
  secrets: Array<[name: string, value: string]>;
  /** Workspace bytes after the call, when it was over its quota. */
  overQuota: number | null;
}

interface Touched {
  projectId: string;
  dirty: boolean;
}

const RESTORE = "find /workspace -mindepth 1 -delete && tar -xzf - -C /workspace --no-same-owner --no-same-permissions";
const SNAPSHOT = "tar -czf - -C /workspace .";

/**
 * Runs the code-execution tools' calls of one process: each call in a fresh bubblewrap sandbox over the session's
 * workspace, at most `maxConcurrent` at once. The workspace is a host folder per session, restored from the saved
 * snapshot when this process's copy is older (another worker ran the session, an upload, a restart), and saved at the
 * end of every turn that may have changed it; files under /workspace/outputs become artifacts then.
 */
export class CodeExecution {
  private probed: Promise<ProbeResult> | undefined;
  private readonly slots: Slots;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly touched = new Map<string, Touched>();
  private readonly prepared = new Map<string, Promise<SessionDirs>>();
  readonly layers: PackageLayers;

  constructor(
    private readonly ctx: AppContext,
    readonly settings: SandboxSettings,
  ) {
    this.slots = new Slots(settings.maxConcurrent);
    this.layers = new PackageLayers(settings, (target, script, args) => this.buildLayer(target, script, args));
  }

  available(): Promise<ProbeResult> {
    this.probed ??= probeSandbox(this.settings);
    return this.probed;
  }

  async run(
    session: SessionRuntimeInfo,
    agent: AgentConfig,
    request: ExecRequest,
    signal: AbortSignal,
  ): Promise<ExecResult> {
    const probe = await this.available();
    if (!probe.ok) throw new SandboxUnavailable(probe.reason);
    const environment = await loadExecutionEnvironment(this.ctx.db.prisma, session.projectId, session.environmentId);
    const [dirs, layer, secrets] = await Promise.all([
      this.prepare(session),
      environment.packages.npm.length + environment.packages.pip.length > 0
        ? this.layers.ensure(environment.packages)
        : Promise.resolve(undefined),
      openSandboxSecrets(this.ctx, session.workspaceId, environment),
    ]);
    if (request.writes) this.touched.set(session.id, { projectId: session.projectId, dirty: true });
    else if (!this.touched.has(session.id))
      this.touched.set(session.id, { projectId: session.projectId, dirty: false });

    const resources = environment.resources;
    const timeoutMs = Math.min(request.timeoutMs ?? resources.timeoutMs, resources.timeoutMs);
    const env = { ...environment.variables, ...Object.fromEntries(secrets) };
    const mounts: SandboxMounts = { workspace: dirs.workspace, ...(layer ? { layer } : {}) };
    const proxy =
      environment.networking.type === "limited"
        ? await callEgressBridge(this.ctx, this.settings, {
            session,
            agent,
            allowedHosts: environment.networking.allowedHosts,
            dir: dirs.dir,
          })
        : null;
    if (proxy) mounts.proxySocket = proxy.path;
    await this.slots.take(signal);
    try {
      const outcome = await runSandboxed({
        bwrapPath: this.settings.bwrapPath!,
        uid: this.settings.uid,
        gid: this.settings.gid,
        mounts,
        script: request.script,
        ...(request.args ? { args: request.args } : {}),
        ...(request.stdin !== undefined ? { stdin: request.stdin } : {}),
        env,
        limits: {
          memoryBytes: resources.memoryMb * 1024 * 1024,
          pids: resources.pids,
          cpus: resources.cpus,
          fileBytes: resources.workspaceMb * 1024 * 1024,
          timeoutMs,
        },
        maxOutputBytes: request.maxOutputBytes ?? 64 * 1024,
        signal,
      });
      const used = request.writes ? await folderBytes(dirs.workspace) : 0;
      return {
        ...outcome,
        limits: { ...resources, timeoutMs },
        secrets,
        overQuota: used > resources.workspaceMb * 1024 * 1024 ? used : null,
      };
    } finally {
      this.slots.release();
      await proxy?.close();
    }
  }

  /**
   * Before the commit that ends a session's turn: saves the workspace when a call of this process may have changed
   * it, and turns new or changed files under /workspace/outputs into artifacts.
   */
  async endTurn(sessionId: string): Promise<void> {
    const touched = this.touched.get(sessionId);
    this.touched.delete(sessionId);
    this.prepared.delete(sessionId);
    if (!touched?.dirty) return;
    const dirs = sessionDirs(this.settings.root, sessionId);
    const environment = await this.environmentOf(sessionId, touched.projectId);
    const quota = environment.resources.workspaceMb * 1024 * 1024;
    const outcome = await this.exec(dirs, SNAPSHOT, [], undefined, quota + 1024 * 1024, 120_000);
    if (outcome.exitCode !== 0 || outcome.stdoutDropped > 0) {
      this.ctx.logger.warn(
        {
          sessionId,
          exitCode: outcome.exitCode,
          dropped: outcome.stdoutDropped,
          stderr: outcome.stderr.toString().slice(0, 500),
        },
        "workspace not saved (over its quota or unreadable)",
      );
      return;
    }
    const entries = await readTar(outcome.stdout);
    const files = entries.filter((e) => e.type === "file");
    const generation = await saveWorkspaceSnapshot(this.ctx.db.pool, sessionId, outcome.stdout, {
      bytes: files.reduce((sum, e) => sum + e.size, 0),
      files: files.length,
    });
    await setLocalGeneration(dirs, generation);
    await saveOutputs(this.ctx.db.pool, { sessionId, projectId: touched.projectId }, files);
  }

  /**
   * Removes this process's copies of workspaces whose session was deleted, or that no call used for `idleMs` (they
   * are restored from the saved snapshot if the session runs code again). Returns how many were removed.
   */
  async sweep(idleMs = 24 * 3600_000): Promise<number> {
    const entries = await readdir(this.settings.root, { withFileTypes: true }).catch(() => []);
    const ids = entries.filter((e) => e.isDirectory() && /^sess_[A-Za-z0-9]+$/.test(e.name)).map((e) => e.name);
    if (ids.length === 0) return 0;
    const alive = await existingSessionIds(this.ctx.db.pool, ids);
    let removed = 0;
    for (const id of ids) {
      if (this.touched.has(id) || this.prepared.has(id)) continue;
      const dir = sessionDirs(this.settings.root, id).dir;
      const used = (await stat(dir).catch(() => null))?.mtimeMs ?? 0;
      if (alive.has(id) && Date.now() - used < idleMs) continue;
      await rm(dir, { recursive: true, force: true });
      removed++;
    }
    return removed;
  }

  /** Sweeps every `everyMs` until `stop()`. */
  startSweeping(everyMs = 15 * 60_000): void {
    this.sweeper ??= setInterval(() => {
      this.sweep().catch((error: unknown) => this.ctx.logger.warn({ err: error }, "sweeping sandbox folders failed"));
    }, everyMs);
    this.sweeper.unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private async environmentOf(sessionId: string, projectId: string): Promise<ExecutionEnvironment> {
    const session = await sessionEnvironment(this.ctx.db.pool, sessionId);
    return loadExecutionEnvironment(this.ctx.db.prisma, projectId, session?.environmentId ?? null);
  }

  /** The session's folders, current with the saved workspace (restored when this copy is older). Once per turn. */
  private prepare(session: SessionRuntimeInfo): Promise<SessionDirs> {
    let pending = this.prepared.get(session.id);
    if (!pending) {
      pending = this.restoreIfStale(session.id);
      this.prepared.set(session.id, pending);
      pending.catch(() => this.prepared.delete(session.id));
    }
    return pending;
  }

  private async restoreIfStale(sessionId: string): Promise<SessionDirs> {
    const dirs = sessionDirs(this.settings.root, sessionId);
    const created = await ensureSessionDirs(dirs, this.settings);
    // Marks the copy as in use for the sweep.
    const now = new Date();
    await utimes(dirs.dir, now, now);
    const local = created ? 0 : await localGeneration(dirs);
    const saved = await workspaceGeneration(this.ctx.db.pool, sessionId);
    if (saved > local) {
      const snapshot = await loadWorkspaceSnapshot(this.ctx.db.pool, sessionId);
      if (snapshot) {
        const outcome = await this.exec(dirs, RESTORE, [], snapshot.snapshot, 64 * 1024, 120_000);
        if (outcome.exitCode !== 0) {
          throw new SandboxUnavailable(
            `The session's workspace could not be restored: ${outcome.stderr.toString().slice(0, 300)}`,
          );
        }
        await setLocalGeneration(dirs, snapshot.generation);
      }
    }
    return dirs;
  }

  private async buildLayer(target: string, script: string, args: string[]): Promise<string | null> {
    const proxy = await packageEgressBridge(this.ctx, this.settings, target);
    const { path } = proxy;
    try {
      const outcome = await runSandboxed({
        bwrapPath: this.settings.bwrapPath!,
        uid: this.settings.uid,
        gid: this.settings.gid,
        mounts: { workspace: target, extraBind: { host: target, sandbox: "/opt/packages" }, proxySocket: path },
        script,
        args,
        env: {},
        limits: {
          memoryBytes: 2048 * 1024 * 1024,
          pids: 512,
          cpus: 2,
          fileBytes: 1024 * 1024 * 1024,
          timeoutMs: this.settings.packagesTimeoutMs,
        },
        maxOutputBytes: 16 * 1024,
      });
      if (outcome.exitCode === 0) return null;
      const why = outcome.timedOut
        ? `timed out after ${this.settings.packagesTimeoutMs} ms`
        : `exit code ${outcome.exitCode}`;
      return `${why}: ${outcome.stderr.toString("utf8").trim().slice(-1500)}`;
    } finally {
      await proxy.close();
      await rm(path, { force: true });
    }
  }

  /** A platform-side call (restore, snapshot) with generous fixed limits. */
  private async exec(
    dirs: SessionDirs,
    script: string,
    args: string[],
    stdin: Uint8Array | undefined,
    maxOutputBytes: number,
    timeoutMs: number,
  ): Promise<SandboxOutcome> {
    await this.slots.take();
    try {
      return await runSandboxed({
        bwrapPath: this.settings.bwrapPath!,
        uid: this.settings.uid,
        gid: this.settings.gid,
        mounts: { workspace: dirs.workspace },
        script,
        args,
        ...(stdin ? { stdin } : {}),
        env: {},
        limits: { memoryBytes: 1024 * 1024 * 1024, pids: 64, cpus: 1, fileBytes: 4 * 1024 * 1024 * 1024, timeoutMs },
        maxOutputBytes,
      });
    } finally {
      this.slots.release();
    }
  }
}
