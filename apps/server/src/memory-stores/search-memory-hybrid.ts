import { LIMITS, type MemorySearchResult, type SearchMode } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import { embeddingFailure, embedMetered } from "../knowledge-bases/index.js";
import { embeddingModelName, parseEmbeddingSpec } from "../models/index.js";
import { fuseRanks, type RankedList, readVectorInto, topByDotProduct } from "../retrieval/index.js";
import { searchMemory } from "./memory-entries.js";

type Retriever = "fulltext" | "semantic";

export interface MemorySearchInput {
  storeId: string;
  query: string;
  limit?: number;
  mode?: SearchMode;
  agentId?: string | null;
  signal?: AbortSignal;
}

const SNIPPET_CHARS = 240;

/**
 * Searches a store's entries (resolved by the caller): `fulltext` finds entries whose key or content contains every
 * word (as before), `semantic` compares the query's vector with each entry's (an exact scan: stores hold notes, not
 * corpora), `hybrid` fuses both rankings by reciprocal rank. Entries whose vector is older than the entry are left to
 * the full-text side until the store's job has embedded them again.
 */
export async function searchMemoryHybrid(ctx: AppContext, input: MemorySearchInput): Promise<MemorySearchResult> {
  const mode = input.mode ?? "hybrid";
  const limit = Math.min(Math.max(Math.trunc(input.limit ?? 10), 1), LIMITS.memorySearchResults);
  const retrievers: MemorySearchResult["retrievers"] = { fulltext: mode !== "semantic", semantic: null };
  const k = Math.max(20, limit * 3);
  const lists: RankedList<Retriever>[] = [];
  if (mode !== "semantic") {
    const hits = await searchMemory(ctx.db.prisma, input.storeId, input.query, Math.min(k, LIMITS.memorySearchResults));
    lists.push({ retriever: "fulltext", ids: hits.map((h) => h.key), scores: hits.map(() => 1) });
  }
  if (mode !== "fulltext") {
    const semantic = await semanticList(ctx, input, k, mode);
    retrievers.semantic = semantic.report;
    if (semantic.list) lists.push(semantic.list);
  }
  const fused = fuseRanks(lists, limit);
  if (fused.length === 0) return { data: [], mode, retrievers };
  const { rows } = await ctx.db.pool.query<{ key: string; content: string; updatedAt: Date }>(
    `SELECT "key", "content", "updatedAt" FROM memory_entries WHERE "storeId" = $1 AND "key" = ANY($2::text[])`,
    [input.storeId, fused.map((f) => f.id)],
  );
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const data: MemorySearchResult["data"] = [];
  for (const hit of fused) {
    const row = byKey.get(hit.id);
    if (!row) continue;
    const only = lists.length === 1 ? hit.foundBy[lists[0]!.retriever] : undefined;
    data.push({
      key: row.key,
      snippet: row.content.length > SNIPPET_CHARS ? `${row.content.slice(0, SNIPPET_CHARS)}…` : row.content,
      bytes: Buffer.byteLength(row.content),
      score: only ? only.score : hit.score,
      foundBy: hit.foundBy,
      updatedAt: row.updatedAt.toISOString(),
    });
  }
  return { data, mode, retrievers };
}

async function semanticList(
  ctx: AppContext,
  input: MemorySearchInput,
  k: number,
  mode: SearchMode,
): Promise<{ list: RankedList<Retriever> | null; report: NonNullable<MemorySearchResult["retrievers"]["semantic"]> }> {
  const { rows: stores } = await ctx.db.pool.query<{
    workspaceId: string;
    servingModel: unknown;
    servingSpace: string;
  }>(`SELECT "workspaceId", "servingModel", "servingSpace" FROM memory_stores WHERE "id" = $1`, [input.storeId]);
  const store = stores[0];
  const parsed = store ? parseEmbeddingSpec(store.servingModel) : null;
  if (!store || !parsed?.ok) return { list: null, report: { model: null, backend: null } };
  const report = { model: embeddingModelName(parsed.spec), backend: "exact" as const };
  let query: Float32Array;
  try {
    const embedded = await embedMetered(ctx, {
      workspaceId: store.workspaceId,
      agentId: input.agentId ?? null,
      spec: parsed.spec,
      texts: [input.query],
      ...(input.signal ? { signal: input.signal } : {}),
    });
    query = embedded.vectors[0]!;
  } catch (error) {
    const failure = embeddingFailure(error);
    if (!failure || mode === "semantic") throw failure ?? error;
    return { list: null, report: { ...report, error: failure.message } };
  }
  if (!query.some((v) => v !== 0)) return { list: { retriever: "semantic", ids: [], scores: [] }, report };
  const { rows } = await ctx.db.pool.query<{ key: string; vector: Buffer }>(
    `SELECT v."key", v."vector" FROM memory_entry_vectors v
     JOIN memory_entries e ON e."storeId" = v."storeId" AND e."key" = v."key"
     WHERE v."storeId" = $1 AND v."space" = $2 AND v."sourceUpdatedAt" >= e."updatedAt"`,
    [input.storeId, store.servingSpace],
  );
  const dims = query.length;
  const usable = rows.filter((r) => r.vector.byteLength === dims * 4);
  const matrix = new Float32Array(usable.length * dims);
  for (const [i, r] of usable.entries()) readVectorInto(r.vector, matrix, i * dims);
  const top = topByDotProduct(matrix, dims, query, k);
  return {
    list: { retriever: "semantic", ids: top.map((t) => usable[t.row]!.key), scores: top.map((t) => t.score) },
    report,
  };
}
