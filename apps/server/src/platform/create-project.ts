import type { Database } from "@agent-platform/db";
import { newId } from "../ids.js";

/** A project always comes with its default environment, created in the same transaction. */
export async function createProject(prisma: Database, workspaceId: string, name: string) {
  const projectId = newId("project");
  const environmentId = newId("environment");
  const [, project] = await prisma.$transaction([
    prisma.environment.create({ data: { id: environmentId, projectId, name: "default" } }),
    prisma.project.create({ data: { id: projectId, workspaceId, name, defaultEnvironmentId: environmentId } }),
  ]);
  return project;
}
