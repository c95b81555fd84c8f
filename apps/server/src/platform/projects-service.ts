import type { Database } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import type { AuthContext } from "../http/auth-context.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { createProject } from "./create-project.js";
import { toProject } from "./serialize.js";

export async function createWorkspaceProject(prisma: Database, auth: AuthContext, name: string) {
  return toProject(await createProject(prisma, auth.workspaceId, name));
}

export async function listProjects(prisma: Database, auth: AuthContext, limit: number, cursor?: string) {
  const after = decodeCursor(cursor, {});
  const rows = await prisma.project.findMany({
    where: { workspaceId: auth.workspaceId, ...(after ? { id: { lt: after } } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  return pageOf(rows, limit, {}, (r) => r.id, toProject);
}

/** A key sees its own project; an admin key sees every project of its workspace. */
export async function getProject(prisma: Database, auth: AuthContext, projectId: string) {
  const visible = auth.projectId === projectId || auth.role === "admin";
  const row = visible
    ? await prisma.project.findFirst({ where: { id: projectId, workspaceId: auth.workspaceId } })
    : null;
  if (!row) throw new AppError("project.not_found", `Project ${projectId} was not found`);
  return toProject(row);
}
