import { utimes } from "node:fs/promises";
import type { AppContext } from "../../context.js";
import type { Slots } from "../../lib/slots.js";
import {
  loadWorkspaceSnapshot,
  readTar,
  saveWorkspaceSnapshot,
  type TarEntry,
  workspaceGeneration,
} from "../../workspaces/index.js";
import { platformCall } from "./platform-calls.js";
import { SandboxUnavailable } from "./sandbox-errors.js";
import type { SandboxSettings } from "./sandbox-settings.js";
import {
  ensureSessionDirs,
  localGeneration,
  type SessionDirs,
  sessionDirs,
  setLocalGeneration,
} from "./workspace-dirs.js";

const RESTORE = "find /workspace -mindepth 1 -delete && tar -xzf - -C /workspace --no-same-owner --no-same-permissions";
const SNAPSHOT = "tar -czf - -C /workspace .";

/**
 * A session's workspace between this process's host folder and its saved snapshot: restored once per turn when this
 * copy is older (another worker ran the session, an upload, a restart), saved when a turn may have changed it.
 */
export class WorkspacePersistence {
  private readonly prepared = new Map<string, Promise<SessionDirs>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly settings: SandboxSettings,
    private readonly slots: Slots,
  ) {}

  /** The session's folders, current with the saved workspace (restored when this copy is older). Once per turn. */
  prepare(sessionId: string): Promise<SessionDirs> {
    let pending = this.prepared.get(sessionId);
    if (!pending) {
      pending = this.restoreIfStale(sessionId);
      this.prepared.set(sessionId, pending);
      pending.catch(() => this.prepared.delete(sessionId));
    }
    return pending;
  }

  /** The turn ended: the next call restores again if the saved workspace moved meanwhile. */
  forget(sessionId: string): void {
    this.prepared.delete(sessionId);
  }

  /** The session's copy is being prepared or used in this turn (the sweep leaves it). */
  inUse(sessionId: string): boolean {
    return this.prepared.has(sessionId);
  }

  /**
   * Saves the session's workspace as its new snapshot (at most `quotaBytes`); returns the files saved, or null when
   * it could not be read or was over its quota (logged).
   */
  async save(sessionId: string, quotaBytes: number): Promise<TarEntry[] | null> {
    const dirs = sessionDirs(this.settings.root, sessionId);
    const outcome = await platformCall(this.settings, this.slots, dirs, {
      script: SNAPSHOT,
      maxOutputBytes: quotaBytes + 1024 * 1024,
      timeoutMs: 120_000,
    });
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
      return null;
    }
    const entries = await readTar(outcome.stdout);
    const files = entries.filter((e) => e.type === "file");
    const generation = await saveWorkspaceSnapshot(this.ctx.db.pool, sessionId, outcome.stdout, {
      bytes: files.reduce((sum, e) => sum + e.size, 0),
      files: files.length,
    });
    await setLocalGeneration(dirs, generation);
    return files;
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
        const outcome = await platformCall(this.settings, this.slots, dirs, {
          script: RESTORE,
          stdin: snapshot.snapshot,
          maxOutputBytes: 64 * 1024,
          timeoutMs: 120_000,
        });
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
}
