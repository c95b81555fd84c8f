import { type KnowledgeSearchHit, LIMITS } from "@agent-platform/contract";
import type pg from "pg";

type Queryable = Pick<pg.Pool, "query">;

// The WHERE clause repeats the expression of the GIN index "knowledge_documents_fts_idx" exactly, so the index is used.
// Ranking weighs the title above the body; it runs only on matching rows. Headlines are computed after the LIMIT.
const SEARCH_SQL = `
WITH q AS (SELECT websearch_to_tsquery('simple'::regconfig, $3) AS query),
ranked AS (
  SELECT d."id", d."knowledgeBaseId", d."title", d."content", d."metadata",
         ts_rank(setweight(to_tsvector('simple'::regconfig, d."title"), 'A') ||
                 setweight(to_tsvector('simple'::regconfig, d."content"), 'D'), q.query, 1) AS score
  FROM knowledge_documents d
  JOIN knowledge_bases kb ON kb."id" = d."knowledgeBaseId"
  CROSS JOIN q
  WHERE kb."projectId" = $1
    AND d."knowledgeBaseId" = ANY($2::text[])
    AND to_tsvector('simple'::regconfig, d."title" || ' ' || d."content") @@ q.query
  ORDER BY score DESC, d."id" DESC
  LIMIT $4
)
SELECT r."id", r."knowledgeBaseId", r."title", r."metadata", r.score::float8 AS "score",
       ts_headline('simple'::regconfig, r."content", q.query,
                   'StartSel=**, StopSel=**, MaxWords=35, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "')
         AS "snippet"
FROM ranked r CROSS JOIN q
ORDER BY r.score DESC, r."id" DESC`;

interface HitRow {
  id: string;
  knowledgeBaseId: string;
  title: string;
  metadata: Record<string, string> | null;
  score: number;
  snippet: string;
}

/**
 * Full-text search (PostgreSQL, `simple` configuration: no stemming, no stop words) over the documents of the given
 * knowledge bases of the project, best match first. `query` uses web-search syntax (`"exact phrase"`, `or`, `-word`).
 * Bases outside the project are ignored, never an error: the caller decides which bases an agent may see.
 */
export async function searchKnowledge(
  pool: Queryable,
  projectId: string,
  knowledgeBaseIds: readonly string[],
  query: string,
  limit = 10,
): Promise<KnowledgeSearchHit[]> {
  const text = query.trim().slice(0, LIMITS.knowledgeQueryLength);
  if (knowledgeBaseIds.length === 0 || text.length === 0) return [];
  const bounded = Math.min(Math.max(Math.trunc(limit), 1), LIMITS.knowledgeSearchResults);
  const { rows } = await pool.query<HitRow>(SEARCH_SQL, [projectId, [...knowledgeBaseIds], text, bounded]);
  return rows.map((row) => ({
    documentId: row.id,
    knowledgeBaseId: row.knowledgeBaseId,
    title: row.title,
    snippet: row.snippet,
    score: row.score,
    metadata: row.metadata ?? {},
  }));
}
