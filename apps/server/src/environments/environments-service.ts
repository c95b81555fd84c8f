import type { CreateEnvironment, Environment, UpdateEnvironment } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { type ArchivedStatus, archivedWhere } from "../http/list-filters.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { checkSecretReferences } from "./check-secret-references.js";
import { toEnvironment } from "./serialize.js";

/** The code-execution fields of a create or an edit, as stored (only those present). */
function executionFields(input: CreateEnvironment | UpdateEnvironment) {
  return {
    ...(input.networking !== undefined ? { networking: input.networking } : {}),
    ...(input.packages !== undefined ? { packages: input.packages } : {}),
    ...(input.secrets !== undefined ? { secrets: input.secrets } : {}),
    ...(input.resources !== undefined ? { resources: input.resources } : {}),
  };
}

async function defaultEnvironmentIdOf(prisma: Database, projectId: string): Promise<string | null> {
  const project = await prisma.project.findUnique({ where: { id: projectId }, select: { defaultEnvironmentId: true } });
  return project?.defaultEnvironmentId ?? null;
}

export async function createEnvironment(
  prisma: Database,
  scope: { projectId: string; workspaceId: string },
  input: CreateEnvironment,
): Promise<Environment> {
  const { projectId } = scope;
  await checkSecretReferences(prisma, scope.workspaceId, input.secrets);
  const row = await prisma.environment.create({
    data: {
      id: newId("environment"),
      projectId,
      name: input.name,
      description: input.description ?? null,
      variables: input.variables ?? {},
      ...executionFields(input),
    },
  });
  return toEnvironment(row, await defaultEnvironmentIdOf(prisma, projectId));
}

export async function listEnvironments(
  prisma: Database,
  projectId: string,
  query: { limit: number; cursor?: string; status: ArchivedStatus },
) {
  const filters = { projectId, status: query.status };
  const after = decodeCursor(query.cursor, filters);
  const [rows, defaultId] = await Promise.all([
    prisma.environment.findMany({
      where: { projectId, ...archivedWhere(query.status), ...(after ? { id: { lt: after } } : {}) },
      orderBy: { id: "desc" },
      take: query.limit + 1,
    }),
    defaultEnvironmentIdOf(prisma, projectId),
  ]);
  return pageOf(
    rows,
    query.limit,
    filters,
    (r) => r.id,
    (r) => toEnvironment(r, defaultId),
  );
}

export async function getEnvironment(prisma: Database, projectId: string, id: string): Promise<Environment> {
  const row = await prisma.environment.findFirst({ where: { id, projectId } });
  if (!row) throw notFound("environment.not_found", "Environment", id);
  return toEnvironment(row, await defaultEnvironmentIdOf(prisma, projectId));
}

/**
 * Edits the fields present (validated by the contract like create's). One conditional statement, so an archive that
 * lands first makes it a 409 rather than an edit of an archived environment. Sessions store the environment id they
 * resolved at creation, so an edit never changes which environment a session runs with.
 */
export async function updateEnvironment(
  prisma: Database,
  scope: { projectId: string; workspaceId: string },
  id: string,
  input: UpdateEnvironment,
): Promise<Environment> {
  const { projectId } = scope;
  await checkSecretReferences(prisma, scope.workspaceId, input.secrets);
  const data = {
    ...executionFields(input),
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.variables !== undefined ? { variables: input.variables } : {}),
  };
  const [[updated], defaultId] = await Promise.all([
    Object.keys(data).length > 0
      ? prisma.environment.updateManyAndReturn({
          where: { id, projectId, archivedAt: null },
          data: { ...data, updatedAt: new Date() },
        })
      : prisma.environment.findMany({ where: { id, projectId, archivedAt: null } }),
    defaultEnvironmentIdOf(prisma, projectId),
  ]);
  if (updated) return toEnvironment(updated, defaultId);
  const row = await prisma.environment.findFirst({ where: { id, projectId }, select: { id: true } });
  if (!row) throw notFound("environment.not_found", "Environment", id);
  throw new AppError("environment.archived", `Environment ${id} is archived and cannot be edited`);
}

/** Archiving is idempotent. The project's default environment is what sessions fall back to, so it stays active. */
export async function archiveEnvironment(prisma: Database, projectId: string, id: string): Promise<Environment> {
  const row = await prisma.environment.findFirst({ where: { id, projectId } });
  if (!row) throw notFound("environment.not_found", "Environment", id);
  const defaultId = await defaultEnvironmentIdOf(prisma, projectId);
  if (row.id === defaultId) {
    throw new AppError(
      "environment.is_default",
      `Environment ${id} is the project's default environment and cannot be archived`,
    );
  }
  if (row.archivedAt) return toEnvironment(row, defaultId);
  const archived = await prisma.environment.update({ where: { id }, data: { archivedAt: new Date() } });
  return toEnvironment(archived, defaultId);
}

/** For other areas resolving `environmentId`: the environment if it exists in the project and is not archived. */
/** An environment of the project by id (archived ones too: callers say why it cannot be used), or null. */
export async function findEnvironment(prisma: Database, projectId: string, id: string) {
  return prisma.environment.findFirst({ where: { id, projectId }, select: { id: true, archivedAt: true } });
}
