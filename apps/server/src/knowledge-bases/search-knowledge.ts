import {
  type KnowledgeSearchFilter,
  type KnowledgeSearchHit,
  type KnowledgeSearchResult,
  LIMITS,
  type SearchMode,
} from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { type EmbeddingSpec, embeddingModelName, parseEmbeddingSpec } from "../models/index.js";
import { fuseRanks, type RankedList } from "../retrieval/index.js";
import { embeddingFailure, embedMetered } from "./embed-metered.js";
import { searchChunksFullText } from "./fulltext-chunks.js";
import { nearestChunks } from "./nearest-chunks.js";
import { vectorBackendOf } from "./vector-backend.js";

export interface KnowledgeSearchInput {
  projectId: string;
  knowledgeBaseIds: readonly string[];
  query: string;
  limit?: number;
  mode?: SearchMode;
  filter?: KnowledgeSearchFilter;
  /** The agent searching (its budgets count a provider's query embedding too). */
  agentId?: string | null;
  signal?: AbortSignal;
}

interface BaseRow {
  id: string;
  workspaceId: string;
  servingModel: unknown;
  servingSpace: string;
}

type Retriever = "fulltext" | "semantic";

interface HitRow {
  id: string;
  documentId: string;
  knowledgeBaseId: string;
  position: number;
  headingPath: string[] | null;
  startOffset: number;
  endOffset: number;
  content: string;
  title: string;
  metadata: Record<string, string> | null;
}

/** Candidates each retriever proposes for fusion: a few times the answer, as Supabase's hybrid search takes twice. */
function candidates(limit: number): number {
  return Math.min(200, Math.max(20, limit * 3));
}

/**
 * Searches the passages of the given knowledge bases of the project (bases of another project are ignored: the
 * caller decides which an agent may see). `hybrid` runs full-text search and vector search and fuses their rankings
 * (reciprocal rank fusion); each hit says which retriever found it. The query is embedded with each base's serving
 * model (one call per distinct model). In `hybrid`, a failed query embedding leaves the vectors out and says why in
 * `retrievers.semantic.error`; in `semantic` it is the error (502 `embedding.failed`, 403 `budget.exceeded`).
 */
export async function searchKnowledge(ctx: AppContext, input: KnowledgeSearchInput): Promise<KnowledgeSearchResult> {
  const mode = input.mode ?? "hybrid";
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? 10), 1), LIMITS.knowledgeSearchResults);
  const query = input.query.trim().slice(0, LIMITS.knowledgeQueryLength);
  const retrievers: KnowledgeSearchResult["retrievers"] = { fulltext: mode !== "semantic", semantic: null };
  if (input.knowledgeBaseIds.length === 0 || query.length === 0) return { data: [], mode, retrievers };
  const { rows: bases } = await ctx.db.pool.query<BaseRow>(
    `SELECT "id", "workspaceId", "servingModel", "servingSpace" FROM knowledge_bases
     WHERE "projectId" = $1 AND "id" = ANY($2::text[])`,
    [input.projectId, [...input.knowledgeBaseIds]],
  );
  if (bases.length === 0) return { data: [], mode, retrievers };
  const baseIds = bases.map((b) => b.id);
  const k = candidates(limit);
  const lists: RankedList<Retriever>[] = [];
  const [fulltext, semantic] = await Promise.all([
    mode === "semantic"
      ? null
      : searchChunksFullText(ctx.db.pool, { knowledgeBaseIds: baseIds, query, limit: k, filter: input.filter }),
    mode === "fulltext" ? null : semanticLists(ctx, bases, query, k, input, mode),
  ]);
  if (fulltext)
    lists.push({ retriever: "fulltext", ids: fulltext.map((r) => r.id), scores: fulltext.map((r) => r.score) });
  if (semantic) {
    retrievers.semantic = semantic.report;
    lists.push(...semantic.lists);
  }
  const fused = fuseRanks(lists, limit);
  const hits = await hitRows(
    ctx,
    fused.map((f) => f.id),
  );
  const data: KnowledgeSearchHit[] = [];
  for (const hit of fused) {
    const row = hits.get(hit.id);
    if (!row) continue; // deleted since it was ranked
    const only = lists.length === 1 ? hit.foundBy[lists[0]!.retriever] : undefined;
    data.push({
      chunkId: row.id,
      documentId: row.documentId,
      knowledgeBaseId: row.knowledgeBaseId,
      title: row.title,
      headingPath: row.headingPath ?? [],
      position: row.position,
      startOffset: row.startOffset,
      endOffset: row.endOffset,
      text: row.content,
      // One retriever: its own score (ts_rank or cosine); several: the fused score.
      score: only ? only.score : hit.score,
      foundBy: hit.foundBy,
      metadata: row.metadata ?? {},
    });
  }
  return { data, mode, retrievers };
}

async function semanticLists(
  ctx: AppContext,
  bases: BaseRow[],
  query: string,
  k: number,
  input: KnowledgeSearchInput,
  mode: SearchMode,
): Promise<{ lists: RankedList<Retriever>[]; report: NonNullable<KnowledgeSearchResult["retrievers"]["semantic"]> }> {
  const backend = await vectorBackendOf(ctx);
  const bySpace = new Map<string, { spec: EmbeddingSpec; bases: BaseRow[] }>();
  for (const base of bases) {
    const parsed = parseEmbeddingSpec(base.servingModel);
    if (!parsed.ok) continue;
    const group = bySpace.get(base.servingSpace) ?? { spec: parsed.spec, bases: [] };
    group.bases.push(base);
    bySpace.set(base.servingSpace, group);
  }
  const lists: RankedList<Retriever>[] = [];
  const models: string[] = [];
  for (const [space, group] of bySpace) {
    models.push(embeddingModelName(group.spec));
    let vector: Float32Array;
    try {
      const embedded = await embedMetered(ctx, {
        workspaceId: group.bases[0]!.workspaceId,
        agentId: input.agentId ?? null,
        spec: group.spec,
        texts: [query],
        ...(input.signal ? { signal: input.signal } : {}),
      });
      vector = embedded.vectors[0]!;
    } catch (error) {
      const failure = embeddingFailure(error);
      if (!failure || mode === "semantic") throw failure ?? error;
      return {
        lists,
        report: { model: models.join(", "), backend: backend.kind, error: failure.message },
      };
    }
    const nearest = await nearestChunks(ctx, backend, {
      space,
      query: vector,
      knowledgeBaseIds: group.bases.map((b) => b.id),
      limit: k,
      filter: input.filter,
    });
    lists.push({ retriever: "semantic", ids: nearest.map((n) => n.chunkId), scores: nearest.map((n) => n.score) });
  }
  return { lists, report: { model: models.join(", ") || null, backend: backend.kind } };
}

async function hitRows(ctx: AppContext, ids: string[]): Promise<Map<string, HitRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await ctx.db.pool.query<HitRow>(
    `SELECT c."id", c."documentId", c."knowledgeBaseId", c."position", c."headingPath", c."startOffset",
            c."endOffset", c."content", d."title", d."metadata"
     FROM knowledge_chunks c JOIN knowledge_documents d ON d."id" = c."documentId"
     WHERE c."id" = ANY($1::text[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}
