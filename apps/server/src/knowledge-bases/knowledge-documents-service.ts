import { type CreateKnowledgeDocument, type KnowledgeDocument, utf8Bytes } from "@agent-platform/contract";
import type { Database } from "@agent-platform/db";
import { AppError, notFound } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { knowledgeBaseOf } from "./knowledge-bases-service.js";
import { toDocument, toDocumentSummary } from "./serialize.js";

// PostgreSQL caps a tsvector at 1 MB; a document of (almost) only distinct words can pass it before reaching our byte
// limit, and then the full-text index refuses the row.
function isTsvectorTooLong(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    if (/too long for tsvector/i.test(e.message)) return true;
  }
  return false;
}

const summaryFields = {
  id: true,
  knowledgeBaseId: true,
  title: true,
  metadata: true,
  bytes: true,
  createdAt: true,
} as const;

export async function createDocument(
  prisma: Database,
  projectId: string,
  knowledgeBaseId: string,
  input: CreateKnowledgeDocument,
): Promise<KnowledgeDocument> {
  await knowledgeBaseOf(prisma, projectId, knowledgeBaseId);
  try {
    const row = await prisma.knowledgeDocument.create({
      data: {
        id: newId("knowledgeDocument"),
        knowledgeBaseId,
        title: input.title,
        content: input.content,
        bytes: utf8Bytes(input.content),
        metadata: input.metadata ?? {},
      },
    });
    return toDocument(row);
  } catch (error) {
    if (!isTsvectorTooLong(error)) throw error;
    const message = "has too many distinct words to index (PostgreSQL full-text limit); split the document";
    throw new AppError("request.invalid", `Invalid request: body.content: ${message}`, {
      issues: [{ path: "body.content", message }],
    });
  }
}

export async function listDocuments(
  prisma: Database,
  projectId: string,
  knowledgeBaseId: string,
  query: { limit: number; cursor?: string },
) {
  const filters = { knowledgeBaseId };
  const after = decodeCursor(query.cursor, filters);
  await knowledgeBaseOf(prisma, projectId, knowledgeBaseId);
  const rows = await prisma.knowledgeDocument.findMany({
    where: { knowledgeBaseId, ...(after ? { id: { lt: after } } : {}) },
    select: summaryFields,
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, filters, (r) => r.id, toDocumentSummary);
}

async function documentOf(prisma: Database, projectId: string, knowledgeBaseId: string, documentId: string) {
  const row = await prisma.knowledgeDocument.findFirst({
    where: { id: documentId, knowledgeBaseId, knowledgeBase: { projectId } },
  });
  if (!row) {
    await knowledgeBaseOf(prisma, projectId, knowledgeBaseId);
    throw notFound("knowledge_document.not_found", "Document", documentId);
  }
  return row;
}

export async function getDocument(prisma: Database, projectId: string, knowledgeBaseId: string, documentId: string) {
  return toDocument(await documentOf(prisma, projectId, knowledgeBaseId, documentId));
}

export async function deleteDocument(prisma: Database, projectId: string, knowledgeBaseId: string, documentId: string) {
  const row = await documentOf(prisma, projectId, knowledgeBaseId, documentId);
  await prisma.knowledgeDocument.deleteMany({ where: { id: documentId, knowledgeBaseId } });
  return toDocumentSummary(row);
}
