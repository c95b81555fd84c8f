import type { Database } from "@agent-platform/db";
import { generateApiKey, hashApiKey } from "../auth/api-key-hash.js";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import type { AuthContext } from "../http/auth-context.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { toApiKey } from "./serialize.js";

export async function insertApiKey(
  prisma: Database,
  input: { workspaceId: string; projectId: string; name: string; role: "admin" | "member"; key?: string },
) {
  const key = input.key ?? generateApiKey();
  const row = await prisma.apiKey.create({
    data: {
      id: newId("apiKey"),
      workspaceId: input.workspaceId,
      projectId: input.projectId,
      name: input.name,
      role: input.role,
      hash: hashApiKey(key),
      start: key.slice(0, 8),
    },
  });
  return { ...toApiKey(row), key };
}

export async function createApiKey(
  prisma: Database,
  auth: AuthContext,
  input: { name: string; projectId: string; role: "admin" | "member" },
) {
  const project = await prisma.project.findFirst({ where: { id: input.projectId, workspaceId: auth.workspaceId } });
  if (!project) throw new AppError("project.not_found", `Project ${input.projectId} was not found`);
  return insertApiKey(prisma, { ...input, workspaceId: auth.workspaceId });
}

export async function listApiKeys(prisma: Database, auth: AuthContext, limit: number, cursor?: string) {
  const after = decodeCursor(cursor, {});
  const rows = await prisma.apiKey.findMany({
    where: { workspaceId: auth.workspaceId, ...(after ? { id: { lt: after } } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  return pageOf(rows, limit, {}, (r) => r.id, toApiKey);
}

export async function revokeApiKey(ctx: AppContext, auth: AuthContext, id: string) {
  const prisma = ctx.db.prisma;
  const existing = await prisma.apiKey.findFirst({ where: { id, workspaceId: auth.workspaceId } });
  if (!existing) throw new AppError("api_key.not_found", `API key ${id} was not found`);
  const row = existing.revokedAt
    ? existing
    : await prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
  await ctx.apiKeys.publishChange(ctx.db.pool, id);
  return toApiKey(row);
}
