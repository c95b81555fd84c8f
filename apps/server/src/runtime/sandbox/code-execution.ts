import type { AgentConfig } from "@agent-platform/contract";
import type { AppContext } from "../../context.js";
import { type ExecutionEnvironment, loadExecutionEnvironment } from "../../environments/index.js";
import { Slots } from "../../lib/slots.js";
import { sessionEnvironment } from "../../sessions/index.js";
import type { SessionRuntimeInfo } from "../tools/types.js";
import { callEgressBridge } from "./egress-bridge.js";
import { PackageLayers } from "./package-layers.js";
import { buildPackageLayer } from "./platform-calls.js";
import { type ProbeResult, probeSandbox } from "./probe.js";
import { runSandboxed, type SandboxMounts, type SandboxOutcome } from "./run-sandboxed.js";
import { SandboxUnavailable } from "./sandbox-errors.js";
import { saveOutputs } from "./sandbox-outputs.js";
import { openSandboxSecrets } from "./sandbox-secrets.js";
import type { SandboxSettings } from "./sandbox-settings.js";
import { folderBytes } from "./workspace-dirs.js";
import { WorkspacePersistence } from "./workspace-persistence.js";
import { sweepWorkspaceCopies } from "./workspace-sweep.js";

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

/**
 * Runs the code-execution tools' calls of one process: each call in a fresh bubblewrap sandbox over the session's
 * workspace, at most `maxConcurrent` at once. The workspace is a host folder per session (`WorkspacePersistence`:
 * restored from the saved snapshot when older, saved at the end of every turn that may have changed it); files under
 * /workspace/outputs become artifacts then (`saveOutputs`). Copies no longer used are swept (`sweepWorkspaceCopies`).
 */
export class CodeExecution {
  private probed: Promise<ProbeResult> | undefined;
  private readonly slots: Slots;
  private sweeper: NodeJS.Timeout | undefined;
  private readonly touched = new Map<string, Touched>();
  private readonly workspaces: WorkspacePersistence;
  readonly layers: PackageLayers;

  constructor(
    private readonly ctx: AppContext,
    readonly settings: SandboxSettings,
  ) {
    this.slots = new Slots(settings.maxConcurrent);
    this.workspaces = new WorkspacePersistence(ctx, settings, this.slots);
    this.layers = new PackageLayers(settings, (target, script, args) =>
      buildPackageLayer(ctx, settings, target, script, args),
    );
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
      this.workspaces.prepare(session.id),
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
    this.workspaces.forget(sessionId);
    if (!touched?.dirty) return;
    const environment = await this.environmentOf(sessionId, touched.projectId);
    const files = await this.workspaces.save(sessionId, environment.resources.workspaceMb * 1024 * 1024);
    if (files) await saveOutputs(this.ctx.db.pool, { sessionId, projectId: touched.projectId }, files);
  }

  /**
   * Removes this process's copies of workspaces whose session was deleted, or that no call used for `idleMs` (they
   * are restored from the saved snapshot if the session runs code again). Returns how many were removed.
   */
  sweep(idleMs = 24 * 3600_000): Promise<number> {
    const inUse = (id: string) => this.touched.has(id) || this.workspaces.inUse(id);
    return sweepWorkspaceCopies(this.ctx.db.pool, this.settings.root, inUse, idleMs);
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
}
