import type { KnowledgeSearchResult } from "@agent-platform/sdk";
import { formatNumber } from "../lib/format.js";

type FoundBy = KnowledgeSearchResult["data"][number]["foundBy"];
type Retrievers = KnowledgeSearchResult["retrievers"];

/** Which retriever found a hit, with its rank there and its own score (ts_rank, cosine similarity). */
export function FoundByBadges({ foundBy }: { foundBy: FoundBy }) {
  return (
    <span className="found-by">
      found by{" "}
      {foundBy.fulltext && (
        <span className="badge retriever-fulltext" title="PostgreSQL full-text search (ts_rank_cd)">
          words #{foundBy.fulltext.rank} ({formatNumber(foundBy.fulltext.score, 3)})
        </span>
      )}
      {foundBy.semantic && (
        <span className="badge retriever-semantic" title="Vector search (cosine similarity)">
          meaning #{foundBy.semantic.rank} ({formatNumber(foundBy.semantic.score, 3)})
        </span>
      )}
    </span>
  );
}

/** What ran for a search: full text, vectors (model and backend), and why vectors were left out when they were. */
export function RetrieversNote({ mode, retrievers }: { mode: string; retrievers: Retrievers }) {
  const ran = [
    retrievers.fulltext ? "full text" : "",
    retrievers.semantic && !retrievers.semantic.error
      ? `meaning (${retrievers.semantic.model ?? "?"}, ${retrievers.semantic.backend === "pgvector" ? "pgvector" : "exact scan"})`
      : "",
  ].filter(Boolean);
  return (
    <p className="muted small">
      Mode <strong>{mode}</strong>: searched by {ran.join(" and ") || "nothing"}
      {mode === "hybrid" && ran.length === 2 ? ", fused by reciprocal rank" : ""}.
      {retrievers.semantic?.error && <span className="error"> Vectors left out: {retrievers.semantic.error}</span>}
    </p>
  );
}
