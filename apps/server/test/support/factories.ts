import type { Database } from "@agent-platform/db";
import { newId } from "../../src/ids.js";
import { insertApiKey } from "../../src/platform/api-keys-service.js";
import { createProject } from "../../src/platform/create-project.js";

export interface Tenant {
  workspaceId: string;
  projectId: string;
  defaultEnvironmentId: string;
  key: string;
  /** `{ Authorization: "Bearer <key>" }` */
  auth: { Authorization: string };
  /** `/v1/projects/<projectId>` */
  base: string;
}

/** A workspace with one project and one key of the given role. */
export async function createTenant(prisma: Database, role: "admin" | "member" = "admin"): Promise<Tenant> {
  const workspace = await prisma.workspace.create({ data: { id: newId("workspace"), name: "Test workspace" } });
  const project = await createProject(prisma, workspace.id, "Test project");
  const { key } = await insertApiKey(prisma, { workspaceId: workspace.id, projectId: project.id, name: "test", role });
  return {
    workspaceId: workspace.id,
    projectId: project.id,
    defaultEnvironmentId: project.defaultEnvironmentId!,
    key,
    auth: { Authorization: `Bearer ${key}` },
    base: `/v1/projects/${project.id}`,
  };
}
