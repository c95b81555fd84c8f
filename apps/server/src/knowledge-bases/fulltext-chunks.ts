import type { KnowledgeSearchFilter } from "@agent-platform/contract";
import type { Queryable } from "./pgvector.js";

/**
 * Full-text search over passages (PostgreSQL, `simple` configuration: no stemming, no stop words, any language),
 * best first by `ts_rank_cd` (cover density: matched words close together rank higher). The WHERE clause repeats the
 * expression of the GIN index "knowledge_chunks_fts_idx" exactly, so the index is used. `query` uses web-search
 * syntax (words all required, `"exact phrase"`, `or`, `-word`).
 */
export async function searchChunksFullText(
  db: Queryable,
  input: { knowledgeBaseIds: readonly string[]; query: string; limit: number; filter?: KnowledgeSearchFilter },
): Promise<{ id: string; score: number }[]> {
  const values: unknown[] = [[...input.knowledgeBaseIds], input.query, input.limit];
  const at = (value: unknown) => `$${values.push(value)}`;
  const filters: string[] = [];
  const metadata = input.filter?.metadata;
  if (metadata && Object.keys(metadata).length > 0)
    filters.push(`d."metadata" @> ${at(JSON.stringify(metadata))}::jsonb`);
  if (input.filter?.documentIds) filters.push(`c."documentId" = ANY(${at(input.filter.documentIds)}::text[])`);
  const { rows } = await db.query<{ id: string; score: number }>(
    `WITH q AS (SELECT websearch_to_tsquery('simple'::regconfig, $2) AS query)
     SELECT c."id", ts_rank_cd(to_tsvector('simple'::regconfig, c."context" || ' ' || c."content"), q.query)::float8
              AS "score"
     FROM knowledge_chunks c CROSS JOIN q
     ${filters.length > 0 ? `JOIN knowledge_documents d ON d."id" = c."documentId"` : ""}
     WHERE c."knowledgeBaseId" = ANY($1::text[])
       AND to_tsvector('simple'::regconfig, c."context" || ' ' || c."content") @@ q.query
       ${filters.map((f) => `AND ${f}`).join(" ")}
     ORDER BY "score" DESC, c."id"
     LIMIT $3`,
    values,
  );
  return rows;
}
