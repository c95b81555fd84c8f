import type { CreateServerlessTool, ServerlessTool } from "@agent-platform/contract";
import { type Database, Prisma, type ServerlessTool as ServerlessToolRow } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { type ArchivedStatus, archivedWhere } from "../http/list-filters.js";
import { decodeCursor, decodeNumberCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { toServerlessTool, toServerlessToolVersion } from "./serialize.js";
import { resolveToolVault } from "./tool-version-fields.js";

export async function createServerlessTool(
  prisma: Database,
  scope: { workspaceId: string; projectId: string },
  input: CreateServerlessTool,
): Promise<ServerlessTool> {
  const vaultId = input.vaultId === undefined ? null : await resolveToolVault(prisma, scope.workspaceId, input.vaultId);
  try {
    const tool = await prisma.serverlessTool.create({
      data: {
        id: newId("serverlessTool"),
        projectId: scope.projectId,
        name: input.name,
        currentVersion: 1,
        versions: {
          create: {
            version: 1,
            description: input.description,
            inputSchema: input.inputSchema as Prisma.InputJsonObject,
            url: input.url,
            vaultId,
          },
        },
      },
      include: { versions: true },
    });
    return toServerlessTool(tool, tool.versions[0]!);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError(
        "serverless_tool.name_taken",
        `A serverless tool named "${input.name}" already exists in this project`,
      );
    }
    throw error;
  }
}

/** The current version of each tool, in one query. */
async function withCurrentVersions(prisma: Database, tools: ServerlessToolRow[]): Promise<ServerlessTool[]> {
  if (tools.length === 0) return [];
  const versions = await prisma.serverlessToolVersion.findMany({
    where: { OR: tools.map((t) => ({ toolId: t.id, version: t.currentVersion })) },
  });
  const byTool = new Map(versions.map((v) => [v.toolId, v]));
  return tools.map((t) => toServerlessTool(t, byTool.get(t.id)!));
}

export async function listServerlessTools(
  prisma: Database,
  projectId: string,
  query: { limit: number; cursor?: string; status: ArchivedStatus },
) {
  const filters = { status: query.status };
  const after = decodeCursor(query.cursor, filters);
  const rows = await prisma.serverlessTool.findMany({
    where: { projectId, ...archivedWhere(query.status), ...(after ? { id: { lt: after } } : {}) },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  const page = pageOf(rows, query.limit, filters, (r) => r.id);
  return { ...page, data: await withCurrentVersions(prisma, page.data) };
}

export async function toolOf(prisma: Database, projectId: string, id: string) {
  const tool = await prisma.serverlessTool.findFirst({ where: { id, projectId } });
  if (!tool) throw notFound("serverless_tool.not_found", "Serverless tool", id);
  return tool;
}

export async function getServerlessTool(
  prisma: Database,
  projectId: string,
  id: string,
  version?: number,
): Promise<ServerlessTool> {
  const tool = await toolOf(prisma, projectId, id);
  const wanted = version ?? tool.currentVersion;
  const row = await prisma.serverlessToolVersion.findUnique({
    where: { toolId_version: { toolId: id, version: wanted } },
  });
  if (!row) {
    throw new AppError("serverless_tool.version_not_found", `Serverless tool ${id} has no version ${wanted}`);
  }
  return toServerlessTool(tool, row);
}

export async function listServerlessToolVersions(
  prisma: Database,
  projectId: string,
  id: string,
  query: { limit: number; cursor?: string },
) {
  const filters = { toolId: id };
  const after = decodeNumberCursor(query.cursor, filters);
  await toolOf(prisma, projectId, id);
  const rows = await prisma.serverlessToolVersion.findMany({
    where: { toolId: id, ...(after !== undefined ? { version: { lt: after } } : {}) },
    orderBy: { version: "desc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, filters, (r) => r.version, toServerlessToolVersion);
}

/** Idempotent. An archived tool keeps working where it is pinned; it can no longer be published or newly referenced. */
export async function archiveServerlessTool(prisma: Database, projectId: string, id: string) {
  const tool = await toolOf(prisma, projectId, id);
  const row = tool.archivedAt
    ? tool
    : await prisma.serverlessTool.update({ where: { id }, data: { archivedAt: new Date() } });
  const [result] = await withCurrentVersions(prisma, [row]);
  return result!;
}
