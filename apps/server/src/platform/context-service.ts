import type { PlatformContext } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { AppError } from "../http/app-error.js";
import type { AuthContext } from "../http/auth-context.js";
import { toProject } from "./serialize.js";

export async function getPlatformContext(prisma: Database, auth: AuthContext): Promise<PlatformContext> {
  const project = await prisma.project.findUnique({ where: { id: auth.projectId }, include: { workspace: true } });
  if (!project) throw new AppError("project.not_found", `Project ${auth.projectId} was not found`);
  return {
    project: toProject(project),
    workspace: { id: project.workspace.id, name: project.workspace.name },
    apiKey: { id: auth.keyId, name: auth.keyName, role: auth.role },
  };
}
