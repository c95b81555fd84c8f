import { type CreateKnowledgeDocument, type KnowledgeDocument, LIMITS, utf8Bytes } from "@agent-platform/contract";
import type { Database, KnowledgeDocument as KnowledgeDocumentRow } from "@agent-platform/db";
import type { AppContext } from "../context.js";
import { AppError, notFound } from "../http/app-error.js";
import { decodeCursor, decodeNumberCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { enqueueJob } from "../jobs/index.js";
import { inTransaction } from "../lib/transaction.js";
import { htmlToMarkdown, pdfToMarkdown, UnreadablePdf } from "../retrieval/index.js";
import { KNOWLEDGE_INDEX_JOB, KNOWLEDGE_VECTORS_CHANNEL } from "./job-types.js";
import { knowledgeBaseOf } from "./knowledge-bases-service.js";
import { toChunk, toDocument, toDocumentSummary } from "./serialize.js";
import { insertChunks, splitDocument } from "./split-document.js";

/**
 * Stores a document, split into passages, in one transaction that also asks the base's background job for their
 * vectors: the document is searchable by its words at once (`pending`), and by meaning once its passages are
 * embedded (`ready`). HTML is stored as the text it shows (Markdown headings kept).
 */
export async function createDocument(
  ctx: AppContext,
  projectId: string,
  knowledgeBaseId: string,
  input: CreateKnowledgeDocument,
): Promise<KnowledgeDocument> {
  const base = await knowledgeBaseOf(ctx.db.prisma, projectId, knowledgeBaseId);
  const contentType = input.contentType ?? "text";
  const content = await storedText(contentType, input.content);
  const id = newId("knowledgeDocument");
  const chunks = splitDocument({ title: input.title, content, contentType }, base);
  // Passages are indexed one by one: each stays far below PostgreSQL's 1 MB tsvector limit, whatever the document.
  const row = await inTransaction(ctx.db.pool, async (client) => {
    // The job row first: the embedding run locks it before the base's rows (its fence), so both take them in one
    // order and cannot deadlock.
    await enqueueJob(client, KNOWLEDGE_INDEX_JOB, { key: knowledgeBaseId });
    const { rows } = await client.query<KnowledgeDocumentRow>(
      `INSERT INTO knowledge_documents
           ("id", "knowledgeBaseId", "title", "content", "bytes", "metadata", "contentType", "status", "updatedAt")
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, 'pending', now())
         RETURNING *`,
      [
        id,
        knowledgeBaseId,
        input.title,
        content,
        utf8Bytes(content),
        JSON.stringify(input.metadata ?? {}),
        contentType,
      ],
    );
    await insertChunks(client, { id, knowledgeBaseId }, chunks);
    return { ...rows[0]!, chunkCount: chunks.length };
  });
  return toDocument(row);
}

function invalidContent(message: string): AppError {
  return new AppError("request.invalid", `Invalid request: body.content: ${message}`, {
    issues: [{ path: "body.content", message }],
  });
}

/** The text a document is stored as: HTML and PDF become the text they show. */
async function storedText(contentType: string, content: string): Promise<string> {
  if (contentType === "html") return htmlToMarkdown(content);
  if (contentType !== "pdf") return content;
  let text: string;
  try {
    text = await pdfToMarkdown(new Uint8Array(Buffer.from(content, "base64")));
  } catch (error) {
    if (error instanceof UnreadablePdf) throw invalidContent(error.message);
    throw error;
  }
  if (utf8Bytes(text) > LIMITS.knowledgeDocumentBytes) {
    throw invalidContent(`the PDF's text is more than ${LIMITS.knowledgeDocumentBytes} bytes: split the file`);
  }
  return text;
}

const summaryFields = {
  id: true,
  knowledgeBaseId: true,
  title: true,
  metadata: true,
  bytes: true,
  contentType: true,
  status: true,
  chunkCount: true,
  embeddedChunks: true,
  error: true,
  embeddingTokens: true,
  embeddingCostMicroUsd: true,
  createdAt: true,
  updatedAt: true,
} as const;

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

/** A document's passages in order (cursor: the last position sent). */
export async function listChunks(
  prisma: Database,
  projectId: string,
  knowledgeBaseId: string,
  documentId: string,
  query: { limit: number; cursor?: string },
) {
  const filters = { documentId };
  const after = decodeNumberCursor(query.cursor, filters);
  await documentOf(prisma, projectId, knowledgeBaseId, documentId);
  const rows = await prisma.knowledgeChunk.findMany({
    where: { documentId, ...(after !== undefined ? { position: { gt: after } } : {}) },
    orderBy: { position: "asc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, filters, (r) => r.position, toChunk);
}

export async function deleteDocument(ctx: AppContext, projectId: string, knowledgeBaseId: string, documentId: string) {
  const row = await documentOf(ctx.db.prisma, projectId, knowledgeBaseId, documentId);
  await inTransaction(ctx.db.pool, async (client) => {
    // The job row first (as the embedding run's fence takes it): a run writing this document's vectors finishes first.
    await enqueueJob(client, KNOWLEDGE_INDEX_JOB, { key: knowledgeBaseId });
    await client.query(`DELETE FROM knowledge_documents WHERE "id" = $1 AND "knowledgeBaseId" = $2`, [
      documentId,
      knowledgeBaseId,
    ]);
    await client.query(`SELECT pg_notify($1, $2)`, [KNOWLEDGE_VECTORS_CHANNEL, knowledgeBaseId]);
  });
  return toDocumentSummary(row);
}
