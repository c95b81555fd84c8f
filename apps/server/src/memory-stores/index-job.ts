import type { AppContext } from "../context.js";
import { exponentialBackoff, type JobKind, type JobOutcome, type NoPayload, type RunningJob } from "../jobs/index.js";
import { EmbeddingBudgetExceeded, embedMetered } from "../knowledge-bases/index.js";
import { integerSetting } from "../lib/env.js";
import { parseEmbeddingSpec } from "../models/index.js";
import { vectorToBytes } from "../retrieval/index.js";
import { memoryEmbeddingInput } from "./embedding-input.js";
import { MEMORY_INDEX_JOB } from "./job-types.js";

interface StoreRow {
  id: string;
  workspaceId: string;
  embeddingModel: unknown;
  embeddingSpace: string;
  servingSpace: string;
}

const BUDGET_PAUSE_MS = 15 * 60_000;

/**
 * `memory.index` (key: the store id): embeds the entries whose vector of the store's embedding space is missing or
 * older than the entry, in batches committed fenced on the lease (a vector is only replaced by one of a newer entry),
 * then switches searches to the store's model once every entry has its vector and deletes the other spaces'. A budget
 * that refuses pauses the store for 15 minutes; entries keep being found by their words meanwhile.
 */
export function memoryIndexKind(ctx: AppContext, leaseMs: number): JobKind<NoPayload> {
  const batchSize = integerSetting(ctx.config.env, "KNOWLEDGE_EMBED_BATCH", 64, 1, 2048);
  return {
    ...MEMORY_INDEX_JOB,
    concurrency: integerSetting(ctx.config.env, "KNOWLEDGE_EMBED_CONCURRENCY", 4, 1, 256),
    leaseMs,
    retry: { maxAttempts: 5, backoffMs: exponentialBackoff({ baseMs: 1_000, maxMs: 60_000, jitter: 0.2 }) },
    run: (job) => indexStore(ctx, job, batchSize),
  };
}

async function indexStore(ctx: AppContext, job: RunningJob<NoPayload>, batchSize: number): Promise<JobOutcome> {
  for (;;) {
    if (job.signal.aborted) throw job.signal.reason;
    const { rows: stores } = await ctx.db.pool.query<StoreRow>(
      `SELECT "id", "workspaceId", "embeddingModel", "embeddingSpace", "servingSpace" FROM memory_stores WHERE "id" = $1`,
      [job.key],
    );
    const store = stores[0];
    if (!store) return undefined;
    const parsed = parseEmbeddingSpec(store.embeddingModel);
    if (!parsed.ok) throw new Error(`memory store ${store.id}: ${parsed.message}`);
    const { rows: batch } = await ctx.db.pool.query<{ key: string; content: string; updatedAt: Date }>(
      `SELECT e."key", e."content", e."updatedAt" FROM memory_entries e
       LEFT JOIN memory_entry_vectors v ON v."storeId" = e."storeId" AND v."key" = e."key" AND v."space" = $2
       WHERE e."storeId" = $1 AND (v."key" IS NULL OR v."sourceUpdatedAt" < e."updatedAt")
       ORDER BY e."key" LIMIT $3`,
      [store.id, store.embeddingSpace, batchSize],
    );
    if (batch.length === 0) {
      await job.fenced((tx) => switchStoreModel(tx, store));
      return undefined;
    }
    let vectors: Float32Array[];
    try {
      vectors = (
        await embedMetered(ctx, {
          workspaceId: store.workspaceId,
          spec: parsed.spec,
          texts: batch.map((e) => memoryEmbeddingInput(e.key, e.content)),
          signal: job.signal,
        })
      ).vectors;
    } catch (error) {
      if (error instanceof EmbeddingBudgetExceeded) {
        job.logger.warn({ store: store.id, err: error.message }, "memory embedding paused by a budget");
        return { runAgainAt: new Date(Date.now() + BUDGET_PAUSE_MS) };
      }
      throw error;
    }
    await job.fenced((tx) =>
      tx.query(
        `INSERT INTO memory_entry_vectors ("storeId", "key", "space", "vector", "sourceUpdatedAt")
         SELECT $1, u.key, $2, u.vector, u.source
         FROM unnest($3::text[], $4::bytea[], $5::timestamptz[]) AS u(key, vector, source)
         JOIN memory_entries e ON e."storeId" = $1 AND e."key" = u.key
         ON CONFLICT ("storeId", "space", "key") DO UPDATE
           SET "vector" = EXCLUDED."vector", "sourceUpdatedAt" = EXCLUDED."sourceUpdatedAt"
           WHERE memory_entry_vectors."sourceUpdatedAt" < EXCLUDED."sourceUpdatedAt"`,
        [
          store.id,
          store.embeddingSpace,
          batch.map((e) => e.key),
          vectors.map(vectorToBytes),
          batch.map((e) => e.updatedAt),
        ],
      ),
    );
  }
}

async function switchStoreModel(
  tx: { query: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> },
  store: StoreRow,
): Promise<void> {
  const { rows } = await tx.query(
    `SELECT 1 FROM memory_stores WHERE "id" = $1 AND "embeddingSpace" = $2 FOR NO KEY UPDATE`,
    [store.id, store.embeddingSpace],
  );
  if (rows.length === 0) return;
  const { rows: missing } = await tx.query(
    `SELECT 1 FROM memory_entries e WHERE e."storeId" = $1 AND NOT EXISTS (
       SELECT 1 FROM memory_entry_vectors v WHERE v."storeId" = e."storeId" AND v."key" = e."key" AND v."space" = $2
         AND v."sourceUpdatedAt" >= e."updatedAt") LIMIT 1`,
    [store.id, store.embeddingSpace],
  );
  if (missing.length > 0) return;
  await tx.query(
    `UPDATE memory_stores SET "servingModel" = "embeddingModel", "servingSpace" = "embeddingSpace"
     WHERE "id" = $1 AND "servingSpace" <> "embeddingSpace"`,
    [store.id],
  );
  await tx.query(`DELETE FROM memory_entry_vectors WHERE "storeId" = $1 AND "space" <> $2`, [
    store.id,
    store.embeddingSpace,
  ]);
}
