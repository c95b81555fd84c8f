import type { KnowledgeDocumentSummary } from "@agent-platform/sdk";

/**
 * A document's indexing: `pending` (found by its words, its passages waiting for vectors), `ready` (found by meaning
 * too), `failed` (embedding gave up: still found by its words), with how many passages have vectors.
 */
export function DocumentStatus({ document: d }: { document: KnowledgeDocumentSummary }) {
  const cls = d.status === "ready" ? "done" : d.status === "failed" ? "failed" : "pending";
  return (
    <>
      <span className={`badge ${cls}`}>{d.status}</span>{" "}
      <span className="small muted">
        {d.embeddedChunks} of {d.chunkCount} passages embedded
        {d.status === "pending" ? " · found by its words meanwhile" : ""}
      </span>
      {d.error && <div className={`small ${d.status === "failed" ? "error" : "muted"}`}>{d.error}</div>}
    </>
  );
}
