import type { KnowledgeSearchResult, MemoryStoresSearchResult } from "@agent-platform/sdk";
import { Link } from "react-router";
import { formatBytes, formatNumber, formatTime } from "../lib/format.js";
import { FoundByBadges, RetrieversNote } from "./found-by.js";

/**
 * A knowledge base's hits, best first: each passage (document text, shown as text) with its document, heading path,
 * character offsets, score and the retrievers that found it.
 */
export function KnowledgeHits({ result }: { result: KnowledgeSearchResult }) {
  return (
    <section aria-label="Search results" className="hits">
      <RetrieversNote mode={result.mode} retrievers={result.retrievers} />
      {result.data.length === 0 ? (
        <p>No passage matches.</p>
      ) : (
        <ol className="hit-list">
          {result.data.map((hit, index) => (
            <li key={hit.chunkId} className="hit" aria-label={`Hit ${index + 1}: ${hit.title}`}>
              <div className="hit-head">
                <Link to={`/knowledge-bases/${hit.knowledgeBaseId}/documents/${hit.documentId}?passage=${hit.chunkId}`}>
                  {hit.title}
                </Link>
                {hit.headingPath.length > 0 && <span className="muted"> › {hit.headingPath.join(" › ")}</span>}
                <span className="meta">
                  passage {hit.position + 1} · characters {hit.startOffset}–{hit.endOffset} · score{" "}
                  {formatNumber(hit.score, 4)}
                </span>
                <FoundByBadges foundBy={hit.foundBy} />
              </div>
              <blockquote className="passage">{hit.text}</blockquote>
              {Object.keys(hit.metadata).length > 0 && (
                <div className="muted small">
                  {Object.entries(hit.metadata)
                    .map(([key, value]) => `${key}=${value}`)
                    .join(", ")}
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** A memory store's hits, best first: the entry's key, a snippet, its size, score and which retrievers found it. */
export function MemoryHits({ result }: { result: MemoryStoresSearchResult }) {
  return (
    <section aria-label="Search results" className="hits">
      <RetrieversNote mode={result.mode} retrievers={result.retrievers} />
      {result.data.length === 0 ? (
        <p>No entry matches.</p>
      ) : (
        <ol className="hit-list">
          {result.data.map((hit, index) => (
            <li key={hit.key} className="hit" aria-label={`Hit ${index + 1}: ${hit.key}`}>
              <div className="hit-head">
                <code>{hit.key}</code>
                <span className="meta">
                  {formatBytes(hit.bytes)} · updated {formatTime(hit.updatedAt)} · score {formatNumber(hit.score, 4)}
                </span>
                <FoundByBadges foundBy={hit.foundBy} />
              </div>
              <blockquote className="passage">{hit.snippet}</blockquote>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
