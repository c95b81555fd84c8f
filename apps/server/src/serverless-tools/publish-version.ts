import type { PublishServerlessTool, ServerlessTool } from "@agent-platform/contract";
import type { Database, Prisma } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { assertExpectedVersion, bumpUnderLock, type VersionLockRefusals } from "../lib/optimistic-lock.js";
import { toServerlessTool } from "./serialize.js";
import { toolOf } from "./serverless-tools-service.js";
import { resolveToolVault, sameVersionFields, type ToolVersionFields } from "./tool-version-fields.js";

const refusals = (id: string): VersionLockRefusals => ({
  notFound: () => notFound("serverless_tool.not_found", "Serverless tool", id),
  archived: () => new AppError("serverless_tool.archived", `Serverless tool ${id} is archived`),
  conflict: (expected, current) =>
    new AppError(
      "serverless_tool.version_conflict",
      `Serverless tool ${id} is at version ${current}, not ${expected}; read it again and retry`,
    ),
});

/**
 * Publishes the current version patched with the body as version current + 1. `version` is the version the client
 * expects to be current (optimistic lock); the bump is a conditional update, so of two concurrent publishes from the
 * same version exactly one wins. A patch that changes nothing publishes nothing and returns the tool.
 */
export async function publishServerlessToolVersion(
  prisma: Database,
  scope: { workspaceId: string; projectId: string },
  id: string,
  input: PublishServerlessTool,
): Promise<ServerlessTool> {
  const tool = await toolOf(prisma, scope.projectId, id);
  const refuse = refusals(id);
  assertExpectedVersion(tool, input.version, refuse);
  const current = await prisma.serverlessToolVersion.findUniqueOrThrow({
    where: { toolId_version: { toolId: id, version: tool.currentVersion } },
  });
  const next: ToolVersionFields = {
    description: input.description ?? current.description,
    inputSchema: input.inputSchema ?? (current.inputSchema as Record<string, unknown>),
    url: input.url ?? current.url,
    vaultId:
      input.vaultId === undefined
        ? current.vaultId
        : input.vaultId === null
          ? null
          : await resolveToolVault(prisma, scope.workspaceId, input.vaultId),
  };
  if (sameVersionFields(next, { ...current, inputSchema: current.inputSchema as Record<string, unknown> })) {
    return toServerlessTool(tool, current);
  }
  const version = input.version + 1;
  return prisma.$transaction(async (tx) => {
    const updated = await bumpUnderLock(
      async () =>
        (
          await tx.serverlessTool.updateManyAndReturn({
            where: { id, projectId: scope.projectId, currentVersion: input.version, archivedAt: null },
            data: { currentVersion: version },
          })
        )[0],
      () => tx.serverlessTool.findFirst({ where: { id, projectId: scope.projectId } }),
      input.version,
      refuse,
    );
    const row = await tx.serverlessToolVersion.create({
      data: { toolId: id, version, ...next, inputSchema: next.inputSchema as Prisma.InputJsonObject },
    });
    return toServerlessTool(updated, row);
  });
}
