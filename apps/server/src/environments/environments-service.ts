import type { CreateEnvironment, Environment, UpdateEnvironment } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { type ArchivedStatus, archivedWhere } from "../http/list-filters.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { toEnvironment } from "./serialize.js";

async function defaultEnvironmentIdOf(prisma: Database, projectId: string): Promise<string | null> {
  const project = await prisma.project.findUnique({ where: { id: projectId }, select: { defaultEnvironmentId: true } });
  return project?.defaultEnvironmentId ?? null;
}

export async function createEnvironment(
  prisma: Database,
  projectId: string,
  input: CreateEnvironment,
): Promise<Environment> {
  const row = await prisma.environment.create({
    data: {
      id: newId("environment"),
      projectId,
      name: input.name,
      description: input.description ?? null,
      variables: input.variables ?? {},
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
  projectId: string,
  id: string,
  input: UpdateEnvironment,
): Promise<Environment> {
  const data = {
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
