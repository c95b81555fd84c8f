import { vectorLiteral, vectorToBytes } from "../retrieval/index.js";
import { KNOWLEDGE_VECTORS_CHANNEL } from "./job-types.js";
import type { Queryable } from "./pgvector.js";

export interface BatchChunk {
  id: string;
  documentId: string;
  context: string;
  content: string;
}

/**
 * Stores a batch's vectors and what they cost, in the embedding run's fenced transaction: a vector already stored
 * (a run cut short after its commit) is kept, a passage deleted meanwhile is skipped. Each document's counters are
 * counted again from the vectors (not incremented), its share of the batch's tokens and cost added, its status moved
 * to `ready` once every passage has a vector; the base's scan caches are told.
 */
export async function recordVectors(
  tx: Queryable,
  input: {
    base: { id: string };
    space: string;
    chunks: readonly BatchChunk[];
    vectors: readonly Float32Array[];
    inputTokens: number;
    costMicroUsd: number;
    pgvector: boolean;
  },
): Promise<void> {
  const { chunks, vectors } = input;
  await tx.query(
    `INSERT INTO knowledge_chunk_vectors ("chunkId", "space", "knowledgeBaseId", "documentId", "vector"
       ${input.pgvector ? `, "vec"` : ""})
     SELECT c."id", $1, c."knowledgeBaseId", c."documentId", u.vector ${input.pgvector ? ", u.vec::vector" : ""}
     FROM unnest($2::text[], $3::bytea[], $4::text[]) AS u(chunk_id, vector, vec)
     JOIN knowledge_chunks c ON c."id" = u.chunk_id
     ON CONFLICT ("chunkId", "space") DO NOTHING`,
    [
      input.space,
      chunks.map((c) => c.id),
      vectors.map(vectorToBytes),
      input.pgvector ? vectors.map(vectorLiteral) : chunks.map(() => null),
    ],
  );
  // Tokens and cost shared by the documents in proportion to their text in the batch.
  const weight = new Map<string, number>();
  for (const c of chunks)
    weight.set(c.documentId, (weight.get(c.documentId) ?? 0) + c.context.length + c.content.length + 2);
  const total = [...weight.values()].reduce((a, b) => a + b, 0) || 1;
  const documents = [...weight.keys()];
  await tx.query(
    `UPDATE knowledge_documents d SET
       "embeddedChunks" = (SELECT count(*) FROM knowledge_chunk_vectors v WHERE v."documentId" = d."id" AND v."space" = $2),
       "embeddingTokens" = d."embeddingTokens" + u.tokens,
       "embeddingCostMicroUsd" = d."embeddingCostMicroUsd" + u.cost,
       "updatedAt" = now()
     FROM unnest($1::text[], $3::int[], $4::bigint[]) AS u(id, tokens, cost)
     WHERE d."id" = u.id`,
    [
      documents,
      input.space,
      documents.map((d) => Math.round((input.inputTokens * weight.get(d)!) / total)),
      documents.map((d) => Math.round((input.costMicroUsd * weight.get(d)!) / total)),
    ],
  );
  await tx.query(
    `UPDATE knowledge_documents SET
       "status" = CASE WHEN "embeddedChunks" >= "chunkCount" THEN 'ready' ELSE 'pending' END,
       "error" = CASE WHEN "embeddedChunks" >= "chunkCount" THEN NULL ELSE "error" END
     WHERE "id" = ANY($1::text[])`,
    [documents],
  );
  await tx.query(`SELECT pg_notify($1, $2)`, [KNOWLEDGE_VECTORS_CHANNEL, input.base.id]);
}

/**
 * When every passage of the base has a vector of its embedding space: searches switch to it (the model named when
 * the base was changed, unless it changed again since) and the vectors of every other space are deleted. Checked
 * again under the base's row lock (`NO KEY UPDATE`: documents being added hold `KEY SHARE` on it and go on), in the
 * run's fenced transaction. A document committed after the check is embedded by the run its commit requested.
 */
export async function switchServingModel(
  tx: Queryable,
  base: { id: string; embeddingSpace: string; servingSpace: string },
): Promise<void> {
  const { rows } = await tx.query<{ embeddingSpace: string; servingSpace: string }>(
    `SELECT "embeddingSpace", "servingSpace" FROM knowledge_bases WHERE "id" = $1 FOR NO KEY UPDATE`,
    [base.id],
  );
  const current = rows[0];
  if (!current || current.embeddingSpace !== base.embeddingSpace) return;
  const { rows: missing } = await tx.query(
    `SELECT 1 FROM knowledge_chunks c WHERE c."knowledgeBaseId" = $1
       AND NOT EXISTS (SELECT 1 FROM knowledge_chunk_vectors v WHERE v."chunkId" = c."id" AND v."space" = $2)
     LIMIT 1`,
    [base.id, base.embeddingSpace],
  );
  if (missing.length > 0) return;
  if (current.servingSpace !== current.embeddingSpace) {
    await tx.query(
      `UPDATE knowledge_bases SET "servingModel" = "embeddingModel", "servingSpace" = "embeddingSpace", "updatedAt" = now()
       WHERE "id" = $1`,
      [base.id],
    );
  }
  const deleted = await tx.query(`DELETE FROM knowledge_chunk_vectors WHERE "knowledgeBaseId" = $1 AND "space" <> $2`, [
    base.id,
    base.embeddingSpace,
  ]);
  if (current.servingSpace !== current.embeddingSpace || (deleted.rowCount ?? 0) > 0) {
    await tx.query(`SELECT pg_notify($1, $2)`, [KNOWLEDGE_VECTORS_CHANNEL, base.id]);
  }
}
