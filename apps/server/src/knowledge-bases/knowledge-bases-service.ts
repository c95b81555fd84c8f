import type { KnowledgeBase } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { notFound } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { toKnowledgeBase } from "./serialize.js";

const withDocumentCount = { _count: { select: { documents: true } } } as const;

export async function createKnowledgeBase(
  prisma: Database,
  projectId: string,
  input: { name: string; description?: string },
): Promise<KnowledgeBase> {
  const row = await prisma.knowledgeBase.create({
    data: { id: newId("knowledgeBase"), projectId, name: input.name, description: input.description ?? null },
    include: withDocumentCount,
  });
  return toKnowledgeBase(row);
}

export async function listKnowledgeBases(
  prisma: Database,
  projectId: string,
  query: { limit: number; cursor?: string; name?: string },
) {
  const filters = { name: query.name };
  const after = decodeCursor(query.cursor, filters);
  const rows = await prisma.knowledgeBase.findMany({
    where: {
      projectId,
      ...(query.name !== undefined ? { name: query.name } : {}),
      ...(after ? { id: { lt: after } } : {}),
    },
    include: withDocumentCount,
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, filters, (r) => r.id, toKnowledgeBase);
}

/** The base if it is in the project, else 404 `knowledge_base.not_found`. */
export async function knowledgeBaseOf(prisma: Database, projectId: string, id: string) {
  const row = await prisma.knowledgeBase.findFirst({ where: { id, projectId }, include: withDocumentCount });
  if (!row) throw notFound("knowledge_base.not_found", "Knowledge base", id);
  return row;
}

export async function getKnowledgeBase(prisma: Database, projectId: string, id: string): Promise<KnowledgeBase> {
  return toKnowledgeBase(await knowledgeBaseOf(prisma, projectId, id));
}

/** Deletes the base and its documents (cascade). Agents listing it then fail validation on their next write. */
export async function deleteKnowledgeBase(prisma: Database, projectId: string, id: string): Promise<KnowledgeBase> {
  const row = await knowledgeBaseOf(prisma, projectId, id);
  await prisma.knowledgeBase.deleteMany({ where: { id, projectId } });
  return toKnowledgeBase(row);
}

/** For agent validation (`knowledgeBases` allowlist): which of these ids are bases of the project. */
export async function existingKnowledgeBaseIds(prisma: Database, projectId: string, ids: readonly string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await prisma.knowledgeBase.findMany({
    where: { projectId, id: { in: [...ids] } },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}
