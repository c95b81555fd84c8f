import type pg from "pg";
import type { AppContext } from "../context.js";
import { integerSetting } from "../lib/env.js";
import { LruCache } from "../lib/lru-cache.js";
import { onePerOwner } from "../lib/per-owner.js";
import { readVectorInto } from "../retrieval/index.js";
import { KNOWLEDGE_VECTORS_CHANNEL } from "./job-types.js";

/** One base's vectors of one space, packed for an exact scan. */
export interface PackedVectors {
  dimensions: number;
  /** Row i is `matrix[i*dimensions … (i+1)*dimensions)`. */
  matrix: Float32Array;
  chunkIds: string[];
  documentIds: string[];
}

interface VectorRow {
  chunkId: string;
  documentId: string;
  vector: Buffer;
}

async function loadVectors(pool: Pick<pg.Pool, "query">, baseId: string, space: string): Promise<PackedVectors> {
  const { rows } = await pool.query<VectorRow>(
    `SELECT "chunkId", "documentId", "vector" FROM knowledge_chunk_vectors
     WHERE "knowledgeBaseId" = $1 AND "space" = $2`,
    [baseId, space],
  );
  const dimensions = rows[0] ? rows[0].vector.byteLength >> 2 : 0;
  const usable = rows.filter((r) => r.vector.byteLength >> 2 === dimensions);
  const matrix = new Float32Array(usable.length * dimensions);
  for (const [i, row] of usable.entries()) readVectorInto(row.vector, matrix, i * dimensions);
  return {
    dimensions,
    matrix,
    chunkIds: usable.map((r) => r.chunkId),
    documentIds: usable.map((r) => r.documentId),
  };
}

/**
 * The vectors of the bases this process searched, kept in memory for the exact scan (no pgvector), bounded by
 * `KNOWLEDGE_VECTOR_CACHE_MB` (least recently used bases are dropped; a base larger than the budget is read for every
 * search). Kept true by the `knowledge_vectors` NOTIFY that every change of a base's vectors sends (embedding batches,
 * deletions, a model switch), and only trusted while the shared listener is connected; a read that raced a change is
 * used once and not kept.
 */
export class VectorCache {
  private readonly entries: LruCache<string, PackedVectors>;
  /** The keys (one per space) of each base that may be cached. */
  private readonly keysOf = new Map<string, Set<string>>();
  private generation = 0;
  private listening = false;
  private armed = false;

  constructor(
    private readonly ctx: Pick<AppContext, "db" | "listener">,
    maxBytes: number,
  ) {
    this.entries = new LruCache({
      maxEntries: 10_000,
      maxWeight: maxBytes,
      weigh: (v) => v.matrix.byteLength + v.chunkIds.length * 64,
    });
  }

  async vectors(baseId: string, space: string): Promise<PackedVectors> {
    this.listen();
    const key = `${baseId}\n${space}`;
    const trusted = this.armed && this.ctx.listener.connected;
    const cached = trusted ? this.entries.get(key) : undefined;
    if (cached) return cached;
    const generation = this.generation;
    const loaded = await loadVectors(this.ctx.db.pool, baseId, space);
    if (trusted && generation === this.generation) {
      this.entries.set(key, loaded);
      let keys = this.keysOf.get(baseId);
      if (!keys) {
        keys = new Set();
        this.keysOf.set(baseId, keys);
      }
      keys.add(key);
    }
    return loaded;
  }

  /** Drops a base (every space): its vectors changed. */
  forget(baseId: string): void {
    this.generation++;
    for (const key of this.keysOf.get(baseId) ?? []) this.entries.delete(key);
    this.keysOf.delete(baseId);
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.ctx.listener.subscribe(KNOWLEDGE_VECTORS_CHANNEL, {
      onNotification: (baseId) => this.forget(baseId),
      onConnected: () => {
        this.generation++;
        this.entries.clear();
        this.keysOf.clear();
        this.armed = true;
      },
    });
  }
}

export const vectorCacheOf = onePerOwner(
  (ctx: AppContext) =>
    new VectorCache(ctx, integerSetting(ctx.config.env, "KNOWLEDGE_VECTOR_CACHE_MB", 256, 0, 1_048_576) * 1024 * 1024),
);
