import type { CreateKnowledgeBase, KnowledgeBase, UpdateKnowledgeBase } from "@agent-platform/contract";
import type { Database, Prisma } from "@agent-platform/db";
import type { AppContext } from "../context.js";
import { AppError, notFound } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { enqueueJob } from "../jobs/index.js";
import { inTransaction } from "../lib/transaction.js";
import { DEFAULT_EMBEDDING_MODEL } from "../models/embedding-spec.js";
import { providerSettingsOf, type ResolvedEmbeddingModel, resolveEmbeddingModel } from "../models/index.js";
import { KNOWLEDGE_INDEX_JOB, KNOWLEDGE_VECTORS_CHANNEL } from "./job-types.js";
import { type KnowledgeBaseWithCounts, toKnowledgeBase } from "./serialize.js";

const withDocumentCount = { _count: { select: { documents: true } } } as const;

/** The base rows with their document counts and the count of documents still waiting for vectors. */
async function withPending<T extends { id: string; _count: { documents: number } }>(
  prisma: Database,
  rows: T[],
): Promise<(T & { pendingDocuments: number })[]> {
  if (rows.length === 0) return [];
  const pending = await prisma.knowledgeDocument.groupBy({
    by: ["knowledgeBaseId"],
    where: { knowledgeBaseId: { in: rows.map((r) => r.id) }, status: "pending" },
    _count: { _all: true },
  });
  const counts = new Map(pending.map((p) => [p.knowledgeBaseId, p._count._all]));
  return rows.map((row) => ({ ...row, pendingDocuments: counts.get(row.id) ?? 0 }));
}

/** The embedding model of a write, or 422 `embedding.invalid_model` with the reason. */
export function embeddingModelOf(ctx: Pick<AppContext, "config">, reference: unknown): ResolvedEmbeddingModel {
  const resolved = resolveEmbeddingModel(reference ?? DEFAULT_EMBEDDING_MODEL, providerSettingsOf(ctx.config.env));
  if (!resolved.ok) throw new AppError("embedding.invalid_model", `embeddingModel: ${resolved.message}`);
  return resolved.model;
}

export async function createKnowledgeBase(
  ctx: AppContext,
  scope: { projectId: string; workspaceId: string },
  input: CreateKnowledgeBase,
): Promise<KnowledgeBase> {
  const model = embeddingModelOf(ctx, input.embeddingModel);
  const reference = model.reference as Prisma.InputJsonValue;
  const row = await ctx.db.prisma.knowledgeBase.create({
    data: {
      id: newId("knowledgeBase"),
      projectId: scope.projectId,
      workspaceId: scope.workspaceId,
      name: input.name,
      description: input.description ?? null,
      embeddingModel: reference,
      embeddingSpace: model.space,
      servingModel: reference,
      servingSpace: model.space,
      ...(input.chunking
        ? { chunkMaxTokens: input.chunking.maxTokens, chunkOverlapTokens: input.chunking.overlapTokens }
        : {}),
    },
    include: withDocumentCount,
  });
  return toKnowledgeBase({ ...row, pendingDocuments: 0 });
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
  return pageOf(await withPending(prisma, rows), query.limit, filters, (r) => r.id, toKnowledgeBase);
}

/** The base if it is in the project, else 404 `knowledge_base.not_found`. */
export async function knowledgeBaseOf(prisma: Database, projectId: string, id: string) {
  const row = await prisma.knowledgeBase.findFirst({ where: { id, projectId }, include: withDocumentCount });
  if (!row) throw notFound("knowledge_base.not_found", "Knowledge base", id);
  return row;
}

async function shown(prisma: Database, projectId: string, id: string): Promise<KnowledgeBaseWithCounts> {
  const [row] = await withPending(prisma, [await knowledgeBaseOf(prisma, projectId, id)]);
  return row!;
}

export async function getKnowledgeBase(prisma: Database, projectId: string, id: string): Promise<KnowledgeBase> {
  return toKnowledgeBase(await shown(prisma, projectId, id));
}

/**
 * Renames or re-describes a base, or changes its embedding model: the new model becomes the target of the base's
 * background job, every document goes back to `pending`, and searches keep using the current vectors (`servingModel`)
 * until every passage has one of the new model; going back to the serving model cancels the change.
 */
export async function updateKnowledgeBase(
  ctx: AppContext,
  projectId: string,
  id: string,
  input: UpdateKnowledgeBase,
): Promise<KnowledgeBase> {
  const prisma = ctx.db.prisma;
  const current = await knowledgeBaseOf(prisma, projectId, id);
  const model = input.embeddingModel !== undefined ? embeddingModelOf(ctx, input.embeddingModel) : null;
  const changesModel = model !== null && model.space !== current.embeddingSpace;
  await inTransaction(ctx.db.pool, async (client) => {
    // The job row first, as the embedding run's fence takes it (one lock order: no deadlock).
    if (changesModel) await enqueueJob(client, KNOWLEDGE_INDEX_JOB, { key: id });
    const sets: string[] = [`"updatedAt" = now()`];
    const values: unknown[] = [id, projectId];
    const at = (value: unknown) => `$${values.push(value)}`;
    if (input.name !== undefined) sets.push(`"name" = ${at(input.name)}`);
    if (input.description !== undefined) sets.push(`"description" = ${at(input.description)}`);
    if (model) sets.push(`"embeddingModel" = ${at(JSON.stringify(model.reference))}::jsonb`);
    if (changesModel) sets.push(`"embeddingSpace" = ${at(model.space)}`);
    await client.query(`UPDATE knowledge_bases SET ${sets.join(", ")} WHERE "id" = $1 AND "projectId" = $2`, values);
    if (!changesModel) return;
    // Counters of the new space: the vectors it already has (a return to an earlier model finds them all).
    await client.query(
      `UPDATE knowledge_documents d SET "embeddedChunks" = (
         SELECT count(*) FROM knowledge_chunk_vectors v WHERE v."documentId" = d."id" AND v."space" = $2),
         "error" = NULL, "updatedAt" = now()
       WHERE d."knowledgeBaseId" = $1`,
      [id, model.space],
    );
    await client.query(
      `UPDATE knowledge_documents SET "status" = CASE WHEN "chunkCount" > 0 AND "embeddedChunks" >= "chunkCount" THEN 'ready' ELSE 'pending' END
       WHERE "knowledgeBaseId" = $1`,
      [id],
    );
  });
  return getKnowledgeBase(prisma, projectId, id);
}

/** Deletes the base and its documents (cascade). Agents listing it then fail validation on their next write. */
export async function deleteKnowledgeBase(ctx: AppContext, projectId: string, id: string): Promise<KnowledgeBase> {
  const row = await shown(ctx.db.prisma, projectId, id);
  await inTransaction(ctx.db.pool, async (client) => {
    // The job row first (as the embedding run's fence takes it); the run then finds no base and ends.
    await enqueueJob(client, KNOWLEDGE_INDEX_JOB, { key: id });
    await client.query(`DELETE FROM knowledge_bases WHERE "id" = $1 AND "projectId" = $2`, [id, projectId]);
    await client.query(`SELECT pg_notify($1, $2)`, [KNOWLEDGE_VECTORS_CHANNEL, id]);
  });
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
