import type { KnowledgeSearchFilter } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { topByDotProduct } from "../retrieval/index.js";
import { pgvectorNearest, type VectorBackend } from "./pgvector.js";
import { vectorCacheOf } from "./vector-cache.js";

export interface NearestQuery {
  space: string;
  query: Float32Array;
  knowledgeBaseIds: readonly string[];
  limit: number;
  filter?: KnowledgeSearchFilter | undefined;
}

/** Documents of the bases a filter admits (null: no filter). */
async function admittedDocuments(
  ctx: AppContext,
  knowledgeBaseIds: readonly string[],
  filter: KnowledgeSearchFilter | undefined,
): Promise<Set<string> | null> {
  const metadata = filter?.metadata && Object.keys(filter.metadata).length > 0 ? filter.metadata : undefined;
  if (!metadata && !filter?.documentIds) return null;
  const values: unknown[] = [[...knowledgeBaseIds]];
  const at = (value: unknown) => `$${values.push(value)}`;
  const { rows } = await ctx.db.pool.query<{ id: string }>(
    `SELECT "id" FROM knowledge_documents WHERE "knowledgeBaseId" = ANY($1::text[])
     ${metadata ? `AND "metadata" @> ${at(JSON.stringify(metadata))}::jsonb` : ""}
     ${filter?.documentIds ? `AND "id" = ANY(${at(filter.documentIds)}::text[])` : ""}`,
    values,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * The passages nearest the query vector (cosine similarity, best first) among the bases' vectors of one space: through
 * pgvector's HNSW index when the server has it, else by an exact scan of the bases' vectors held in memory.
 */
export async function nearestChunks(
  ctx: AppContext,
  backend: VectorBackend,
  q: NearestQuery,
): Promise<{ chunkId: string; score: number }[]> {
  // A query with nothing the model represents (only identifiers, say) has no direction: nothing is near it. Likewise a
  // passage at zero (or negative) similarity shares nothing with the query and is not returned as a hit.
  if (!q.query.some((v) => v !== 0)) return [];
  if (backend.kind === "pgvector") {
    const client = await ctx.db.pool.connect();
    try {
      return await pgvectorNearest(client, {
        space: q.space,
        query: q.query,
        knowledgeBaseIds: q.knowledgeBaseIds,
        limit: q.limit,
        ...(q.filter?.metadata ? { metadata: q.filter.metadata } : {}),
        ...(q.filter?.documentIds ? { documentIds: q.filter.documentIds } : {}),
        iterativeScan: backend.iterativeScan,
      });
    } finally {
      client.release();
    }
  }
  const admitted = await admittedDocuments(ctx, q.knowledgeBaseIds, q.filter);
  const cache = vectorCacheOf(ctx);
  const found: { chunkId: string; score: number }[] = [];
  for (const baseId of q.knowledgeBaseIds) {
    const packed = await cache.vectors(baseId, q.space);
    if (packed.dimensions !== q.query.length) continue;
    const top = topByDotProduct(
      packed.matrix,
      packed.dimensions,
      q.query,
      q.limit,
      admitted ? (row) => admitted.has(packed.documentIds[row]!) : undefined,
    );
    for (const { row, score } of top) if (score > 0) found.push({ chunkId: packed.chunkIds[row]!, score });
  }
  return found.sort((a, b) => b.score - a.score).slice(0, q.limit);
}
