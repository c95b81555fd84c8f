import { chmod, chown, lstat, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The host folders of a session: `<root>/<session>/workspace` (mounted at /workspace, owned by the sandbox user) and
 * the generation of the saved workspace it holds (`<root>/<session>/generation`, written by the platform only).
 */
export interface SessionDirs {
  dir: string;
  workspace: string;
}

export function sessionDirs(root: string, sessionId: string): SessionDirs {
  if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error(`Not a session id: ${sessionId}`);
  const dir = join(root, sessionId);
  return { dir, workspace: join(dir, "workspace") };
}

/** Creates the folders when missing; true when the workspace was just created (it holds nothing yet). */
export async function ensureSessionDirs(dirs: SessionDirs, owner: { uid: number; gid: number }): Promise<boolean> {
  const created = await mkdir(dirs.workspace, { recursive: true, mode: 0o700 });
  if (created === undefined) return false;
  for (const path of [dirs.dir, dirs.workspace]) {
    await chown(path, owner.uid, owner.gid);
    await chmod(path, 0o700);
  }
  return true;
}

export async function localGeneration(dirs: SessionDirs): Promise<number> {
  const text = await readFile(join(dirs.dir, "generation"), "utf8").catch(() => "0");
  return Number(text.trim()) || 0;
}

export async function setLocalGeneration(dirs: SessionDirs, generation: number): Promise<void> {
  await writeFile(join(dirs.dir, "generation"), String(generation));
}

/**
 * Bytes of the regular files under a folder, walked with lstat only: no file is opened and no link is followed, so
 * whatever the sandbox planted there cannot make the host read elsewhere.
 */
export async function folderBytes(path: string, budget = 200_000): Promise<number> {
  let total = 0;
  let seen = 0;
  const pending = [path];
  while (pending.length > 0 && seen < budget) {
    const current = pending.pop()!;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      seen++;
      const full = join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) total += (await lstat(full).catch(() => ({ size: 0 }))).size;
    }
  }
  return total;
}
