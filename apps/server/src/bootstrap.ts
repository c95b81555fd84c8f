import type { Database } from "@agent-platform/db";
import pg from "pg";
import { hashApiKey } from "./auth/api-key-hash.js";
import { newId } from "./ids.js";
import { insertApiKey } from "./platform/api-keys-service.js";
import { createProject } from "./platform/create-project.js";

export interface BootstrapResult {
  projectId: string;
  /** Set when this start created the key (generated, or the BOOTSTRAP_API_KEY value). */
  apiKey?: string;
  generated: boolean;
}

async function defaultProject(prisma: Database): Promise<{ workspaceId: string; projectId: string }> {
  const existing = await prisma.project.findFirst({ orderBy: { id: "asc" } });
  if (existing) return { workspaceId: existing.workspaceId, projectId: existing.id };
  const workspace = await prisma.workspace.create({ data: { id: newId("workspace"), name: "Default workspace" } });
  const project = await createProject(prisma, workspace.id, "Default project");
  return { workspaceId: workspace.id, projectId: project.id };
}

/**
 * With BOOTSTRAP_API_KEY: make sure a default workspace and project exist and that this exact key works (admin).
 * Without it: on the first start with an empty database, create them and generate a key; on a later start, report the
 * first project (the start banner prints its id). Null only for a database without any project.
 */
export async function bootstrap(
  prisma: Database,
  bootstrapApiKey: string | undefined,
): Promise<BootstrapResult | null> {
  if (bootstrapApiKey) {
    const found = await prisma.apiKey.findUnique({ where: { hash: hashApiKey(bootstrapApiKey) } });
    if (found) {
      if (found.revokedAt) await prisma.apiKey.update({ where: { id: found.id }, data: { revokedAt: null } });
      return { projectId: found.projectId, generated: false };
    }
    const { workspaceId, projectId } = await defaultProject(prisma);
    await insertApiKey(prisma, { workspaceId, projectId, name: "bootstrap", role: "admin", key: bootstrapApiKey });
    return { projectId, apiKey: bootstrapApiKey, generated: false };
  }
  if ((await prisma.workspace.count()) > 0) {
    const first = await prisma.project.findFirst({ orderBy: { id: "asc" }, select: { id: true } });
    return first ? { projectId: first.id, generated: false } : null;
  }
  const { workspaceId, projectId } = await defaultProject(prisma);
  const created = await insertApiKey(prisma, { workspaceId, projectId, name: "bootstrap", role: "admin" });
  return { projectId, apiKey: created.key, generated: true };
}

/** Any fixed number: the advisory lock that serialises bootstraps across processes. */
const BOOTSTRAP_LOCK = 4_207_420_042;

/**
 * `bootstrap` under a PostgreSQL advisory lock held on a connection of its own: processes that start at once on an
 * empty database (an API and its workers, several replicas of a Deployment) create one workspace, one project and one
 * key, and the later ones find them.
 */
export async function bootstrapOnce(
  connectionString: string,
  prisma: Database,
  bootstrapApiKey: string | undefined,
): Promise<BootstrapResult | null> {
  const lock = new pg.Client({ connectionString, application_name: "agent-platform bootstrap" });
  await lock.connect();
  try {
    await lock.query("SELECT pg_advisory_lock($1)", [BOOTSTRAP_LOCK]);
    return await bootstrap(prisma, bootstrapApiKey);
  } finally {
    // Ending the session releases the lock.
    await lock.end().catch(() => {});
  }
}
