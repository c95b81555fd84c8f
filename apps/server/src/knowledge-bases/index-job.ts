import { microUsd } from "../budgets/index.js";
import type { AppContext } from "../context.js";
import { exponentialBackoff, type JobKind, type JobOutcome, type NoPayload, type RunningJob } from "../jobs/index.js";
import { integerSetting } from "../lib/env.js";
import { type EmbeddingSpec, estimateEmbeddingTokens, ModelCallError, parseEmbeddingSpec } from "../models/index.js";
import { EmbeddingBudgetExceeded, embedMetered } from "./embed-metered.js";
import { KNOWLEDGE_INDEX_JOB } from "./job-types.js";
import { ensureSpaceIndex } from "./pgvector.js";
import { chunkLegacyDocuments } from "./split-legacy.js";
import { vectorBackendOf } from "./vector-backend.js";
import { type BatchChunk, recordVectors, switchServingModel } from "./write-vectors.js";

interface BaseRow {
  id: string;
  workspaceId: string;
  embeddingModel: unknown;
  embeddingSpace: string;
  servingSpace: string;
  chunkMaxTokens: number;
  chunkOverlapTokens: number;
}

/** How long embedding waits when a budget refuses it before it tries again. */
const BUDGET_PAUSE_MS = 15 * 60_000;
/** Estimated tokens of one embedding request (the provider allows 300,000). */
const BATCH_TOKENS = 100_000;

/**
 * `knowledge.index` (key: the base id): splits documents stored before passages existed, then embeds the passages
 * that have no vector of the base's embedding space, in batches (`KNOWLEDGE_EMBED_BATCH` passages per request), each
 * batch committed fenced on the lease, so a run cut short resumes where it was and writes nothing twice. Once every
 * passage has a vector of the base's model, searches switch to it and vectors of other spaces are deleted. A budget
 * that refuses pauses the base for 15 minutes (its documents say why); a provider that refuses a batch for good fails
 * those documents only; other failures are retried with backoff, then the base's pending documents fail.
 */
export function knowledgeIndexKind(ctx: AppContext, leaseMs: number): JobKind<NoPayload> {
  const batchSize = integerSetting(ctx.config.env, "KNOWLEDGE_EMBED_BATCH", 64, 1, 2048);
  // Detected at start, so that the log says which vector search this process uses.
  void vectorBackendOf(ctx);
  return {
    ...KNOWLEDGE_INDEX_JOB,
    concurrency: integerSetting(ctx.config.env, "KNOWLEDGE_EMBED_CONCURRENCY", 4, 1, 256),
    leaseMs,
    retry: { maxAttempts: 5, backoffMs: exponentialBackoff({ baseMs: 1_000, maxMs: 60_000, jitter: 0.2 }) },
    run: (job) => indexBase(ctx, job, batchSize),
    async giveUp(job) {
      await ctx.db.pool.query(
        `UPDATE knowledge_documents SET "status" = 'failed', "error" = $2, "updatedAt" = now()
         WHERE "knowledgeBaseId" = $1 AND "status" = 'pending'`,
        [job.key, `Embedding failed: ${job.lastError}`.slice(0, 2000)],
      );
    },
  };
}

async function loadBase(ctx: AppContext, id: string): Promise<BaseRow | null> {
  const { rows } = await ctx.db.pool.query<BaseRow>(
    `SELECT "id", "workspaceId", "embeddingModel", "embeddingSpace", "servingSpace", "chunkMaxTokens",
            "chunkOverlapTokens"
     FROM knowledge_bases WHERE "id" = $1`,
    [id],
  );
  return rows[0] ?? null;
}

async function nextBatch(
  ctx: AppContext,
  base: BaseRow,
  size: number,
  skipped: ReadonlySet<string>,
): Promise<BatchChunk[]> {
  const { rows } = await ctx.db.pool.query<BatchChunk>(
    `SELECT c."id", c."documentId", c."context", c."content"
     FROM knowledge_chunks c
     WHERE c."knowledgeBaseId" = $1 AND NOT (c."documentId" = ANY($4::text[]))
       AND NOT EXISTS (SELECT 1 FROM knowledge_chunk_vectors v WHERE v."chunkId" = c."id" AND v."space" = $2)
     ORDER BY c."documentId", c."position"
     LIMIT $3`,
    [base.id, base.embeddingSpace, size, [...skipped]],
  );
  const batch: BatchChunk[] = [];
  let tokens = 0;
  for (const row of rows) {
    const t = estimateEmbeddingTokens(row.context) + estimateEmbeddingTokens(row.content);
    if (batch.length > 0 && tokens + t > BATCH_TOKENS) break;
    batch.push(row);
    tokens += t;
  }
  return batch;
}

async function indexBase(ctx: AppContext, job: RunningJob<NoPayload>, batchSize: number): Promise<JobOutcome> {
  await chunkLegacyDocuments(ctx, job);
  const backend = await vectorBackendOf(ctx);
  const indexed = new Set<string>();
  // Documents whose batch the provider refused for good during this run (each is failed and not tried again in it).
  const refused = new Set<string>();
  for (;;) {
    if (job.signal.aborted) throw job.signal.reason;
    const base = await loadBase(ctx, job.key);
    if (!base) return undefined;
    const parsed = parseEmbeddingSpec(base.embeddingModel);
    if (!parsed.ok) throw new Error(`knowledge base ${base.id}: ${parsed.message}`);
    const batch = await nextBatch(ctx, base, batchSize, refused);
    if (batch.length === 0) {
      await job.fenced((tx) => switchServingModel(tx, base));
      return undefined;
    }
    const outcome = await embedBatch(ctx, job, base, parsed.spec, batch);
    if (outcome === "paused") return { runAgainAt: new Date(Date.now() + BUDGET_PAUSE_MS) };
    if (outcome === "refused") {
      for (const chunk of batch) refused.add(chunk.documentId);
      continue;
    }
    if (backend.kind === "pgvector" && !indexed.has(base.embeddingSpace)) {
      await ensureSpaceIndex(ctx.db.pool, base.embeddingSpace, outcome.dimensions);
      indexed.add(base.embeddingSpace);
    }
  }
}

async function embedBatch(
  ctx: AppContext,
  job: RunningJob<NoPayload>,
  base: BaseRow,
  spec: EmbeddingSpec,
  batch: BatchChunk[],
): Promise<{ dimensions: number } | "paused" | "refused"> {
  const documents = [...new Set(batch.map((c) => c.documentId))];
  try {
    const embedded = await embedMetered(ctx, {
      workspaceId: base.workspaceId,
      spec,
      texts: batch.map((c) => `${c.context}\n\n${c.content}`),
      signal: job.signal,
    });
    const backend = await vectorBackendOf(ctx);
    await job.fenced((tx) =>
      recordVectors(tx, {
        base,
        space: base.embeddingSpace,
        chunks: batch,
        vectors: embedded.vectors,
        inputTokens: embedded.inputTokens,
        costMicroUsd: microUsd(embedded.costUsd),
        pgvector: backend.kind === "pgvector",
      }),
    );
    return { dimensions: embedded.dimensions };
  } catch (error) {
    if (error instanceof EmbeddingBudgetExceeded) {
      await markDocuments(ctx, documents, "pending", `Embedding paused: ${error.message}`);
      return "paused";
    }
    // A refusal of the input itself (4xx other than 429): these documents fail, the others go on.
    if (
      error instanceof ModelCallError &&
      error.status !== undefined &&
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 429 &&
      error.status !== 408
    ) {
      await markDocuments(ctx, documents, "failed", `Embedding failed: ${error.message}`);
      return "refused";
    }
    throw error;
  }
}

async function markDocuments(ctx: AppContext, ids: string[], status: string, error: string): Promise<void> {
  await ctx.db.pool.query(
    `UPDATE knowledge_documents SET "status" = $2, "error" = $3, "updatedAt" = now() WHERE "id" = ANY($1::text[])`,
    [ids, status, error.slice(0, 2000)],
  );
}
