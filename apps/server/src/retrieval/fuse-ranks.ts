/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): each retriever's list contributes `1 / (k + rank)`
 * (rank from 1) to a candidate's score, and candidates are ordered by the sum. Ranks, not scores, are combined, so
 * retrievers whose scores are on different scales (ts_rank, cosine similarity) fuse without calibration; `k` = 60
 * damps the weight of the very first ranks (the paper's value; Supabase's hybrid-search function uses 50).
 */
export const RRF_K = 60;

export interface RankedList<R extends string> {
  retriever: R;
  /** Best first. */
  ids: readonly string[];
  /** The retriever's own score of each id, shown with the hit. */
  scores: readonly number[];
}

export interface FusedHit<R extends string> {
  id: string;
  score: number;
  /** What each retriever that found it said: its rank (1 = best) and its own score. */
  foundBy: Partial<Record<R, { rank: number; score: number }>>;
}

export function fuseRanks<R extends string>(lists: readonly RankedList<R>[], limit: number, k = RRF_K): FusedHit<R>[] {
  const hits = new Map<string, FusedHit<R>>();
  for (const list of lists) {
    list.ids.forEach((id, index) => {
      let hit = hits.get(id);
      if (!hit) {
        hit = { id, score: 0, foundBy: {} };
        hits.set(id, hit);
      }
      const seen = hit.foundBy[list.retriever];
      // One list may name an id once; a retriever made of several lists (several vector spaces) keeps its best rank.
      if (seen && seen.rank <= index + 1) return;
      if (seen) hit.score -= 1 / (k + seen.rank);
      hit.score += 1 / (k + index + 1);
      hit.foundBy[list.retriever] = { rank: index + 1, score: list.scores[index] ?? 0 };
    });
  }
  return [...hits.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
}
