import { readdir, rm, stat } from "node:fs/promises";
import type pg from "pg";
import { existingSessionIds } from "../../sessions/index.js";
import { sessionDirs } from "./workspace-dirs.js";

/**
 * Removes this process's copies of workspaces under `root` whose session was deleted, or that no call used for
 * `idleMs` (they are restored from the saved snapshot if the session runs code again), except those `inUse`. Returns
 * how many were removed.
 */
export async function sweepWorkspaceCopies(
  pool: pg.Pool,
  root: string,
  inUse: (sessionId: string) => boolean,
  idleMs: number,
): Promise<number> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const ids = entries.filter((e) => e.isDirectory() && /^sess_[A-Za-z0-9]+$/.test(e.name)).map((e) => e.name);
  if (ids.length === 0) return 0;
  const alive = await existingSessionIds(pool, ids);
  let removed = 0;
  for (const id of ids) {
    if (inUse(id)) continue;
    const dir = sessionDirs(root, id).dir;
    const used = (await stat(dir).catch(() => null))?.mtimeMs ?? 0;
    if (alive.has(id) && Date.now() - used < idleMs) continue;
    await rm(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
