import { SESSION_FILE_LIMITS, type UploadWorkspaceFile, type WorkspaceFileList } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { loadExecutionEnvironment } from "../environments/index.js";
import { AppError, notFound } from "../http/app-error.js";
import { inTransaction } from "../lib/transaction.js";
import { lockSessionAtRest, sessionEnvironment } from "../sessions/index.js";
import { loadWorkspaceSnapshot, saveWorkspaceSnapshot } from "./workspace-store.js";
import { normalizeEntryPath, readTar, type TarEntry, writeTar } from "./workspace-tar.js";

/** `/workspace/a/b` and `a/b` are the same file. */
export function workspaceRelative(path: string): string {
  return normalizeEntryPath(path.startsWith("/workspace/") ? path.slice("/workspace/".length) : path);
}

async function sessionOf(ctx: AppContext, projectId: string, sessionId: string) {
  const session = await sessionEnvironment(ctx.db.pool, sessionId, projectId);
  if (!session) throw notFound("session.not_found", "Session", sessionId);
  return session;
}

export async function listWorkspaceFiles(
  ctx: AppContext,
  projectId: string,
  sessionId: string,
): Promise<WorkspaceFileList> {
  await sessionOf(ctx, projectId, sessionId);
  const saved = await loadWorkspaceSnapshot(ctx.db.pool, sessionId);
  if (!saved) return { data: [], truncated: false, savedAt: null };
  const files = (await readTar(saved.snapshot))
    .filter((e) => e.type === "file")
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    data: files.slice(0, SESSION_FILE_LIMITS.listed).map((f) => ({
      path: f.path,
      bytes: f.size,
      modifiedAt: f.mtime.toISOString(),
    })),
    truncated: files.length > SESSION_FILE_LIMITS.listed,
    savedAt: saved.updatedAt.toISOString(),
  };
}

/** One regular file of the saved workspace; a link, a folder or a missing path is not found (links are not followed). */
export async function readWorkspaceFile(
  ctx: AppContext,
  projectId: string,
  sessionId: string,
  path: string,
): Promise<{ path: string; content: Buffer }> {
  await sessionOf(ctx, projectId, sessionId);
  const wanted = workspaceRelative(path);
  const saved = await loadWorkspaceSnapshot(ctx.db.pool, sessionId);
  const entry = saved ? (await readTar(saved.snapshot)).find((e) => e.path === wanted) : undefined;
  if (entry?.type !== "file") {
    throw new AppError("session.file_not_found", `No file ${wanted} in the workspace of session ${sessionId}`);
  }
  return { path: wanted, content: entry.content ?? Buffer.alloc(0) };
}

function decode(input: UploadWorkspaceFile): Buffer {
  if (input.encoding !== "base64") return Buffer.from(input.content, "utf8");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(input.content.replace(/\s+/g, ""))) {
    throw new AppError("request.invalid", "body.content is not valid base64", {
      issues: [{ path: "body.content", message: "not valid base64" }],
    });
  }
  return Buffer.from(input.content, "base64");
}

/** The parent folders of a path, outermost first (`a`, `a/b` for `a/b/c`). */
function parents(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/**
 * Puts a file into the saved workspace while the session is idle: under the session row's lock (ingestion takes the
 * same lock first, so no turn can start meanwhile), the snapshot is rewritten with the file and saved as the next
 * generation, which the worker restores before the next call. A path through a symbolic link is refused.
 */
export async function uploadWorkspaceFile(
  ctx: AppContext,
  projectId: string,
  sessionId: string,
  input: UploadWorkspaceFile,
): Promise<{ path: string; bytes: number }> {
  const path = workspaceRelative(input.path);
  const content = decode(input);
  if (content.length > SESSION_FILE_LIMITS.uploadBytes) {
    throw new AppError("request.too_large", `A file upload holds at most ${SESSION_FILE_LIMITS.uploadBytes} bytes`);
  }
  const session = await sessionOf(ctx, projectId, sessionId);
  const environment = await loadExecutionEnvironment(ctx.db.prisma, projectId, session.environmentId);
  return inTransaction(ctx.db.pool, async (client) => {
    const head = await lockSessionAtRest(client, projectId, sessionId);
    if (!head) throw notFound("session.not_found", "Session", sessionId);
    if (head.busy) {
      throw new AppError("session.busy", `Session ${sessionId} is running a turn: upload files while it is idle`);
    }
    const saved = await loadWorkspaceSnapshot(client, sessionId, { forUpdate: true });
    const entries = saved ? await readTar(saved.snapshot) : [];
    const byPath = new Map(entries.map((e) => [e.path, e]));
    for (const parent of parents(path)) {
      const existing = byPath.get(parent);
      if (existing && existing.type !== "directory") {
        throw new AppError("request.invalid", `${parent} is not a folder in the workspace`, {
          issues: [{ path: "body.path", message: `${parent} is not a folder` }],
        });
      }
      if (!existing) byPath.set(parent, { path: parent, type: "directory", size: 0, mode: 0o755, mtime: new Date() });
    }
    const existing = byPath.get(path);
    if (existing && existing.type !== "file") {
      throw new AppError("request.invalid", `${path} exists in the workspace and is not a regular file`, {
        issues: [{ path: "body.path", message: "not a regular file" }],
      });
    }
    byPath.set(path, { path, type: "file", content, size: content.length, mode: 0o644, mtime: new Date() });
    const all: TarEntry[] = [...byPath.values()];
    const files = all.filter((e) => e.type === "file");
    const bytes = files.reduce((sum, e) => sum + e.size, 0);
    const quota = environment.resources.workspaceMb * 1024 * 1024;
    if (bytes > quota) {
      throw new AppError(
        "session.workspace_full",
        `The workspace would hold ${bytes} bytes, more than its environment's ${environment.resources.workspaceMb} MiB`,
      );
    }
    await saveWorkspaceSnapshot(client, sessionId, await writeTar(all), { bytes, files: files.length });
    return { path, bytes: content.length };
  });
}
