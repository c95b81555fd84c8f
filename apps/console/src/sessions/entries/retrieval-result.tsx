import type { ReactNode } from "react";
import { parseRetrieved } from "./retrieved.js";

const RETRIEVER: Record<string, string> = { fulltext: "words", semantic: "meaning" };

/**
 * What `knowledge_search` and `memory_search` retrieved, readably: each cited passage with its document, section and
 * character offsets (the passage is document text: shown as text), or each memory entry with its store and key.
 * Undefined when the result is not such a list (another tool, an older shape): the caller shows it as text.
 */
export function retrievalView(tool: string, text: string): ReactNode | undefined {
  const parsed = parseRetrieved(tool, text);
  if (!parsed) return undefined;
  if (parsed.tool === "knowledge_search") {
    const citations = parsed.citations;
    return (
      <div className="citations">
        {parsed.note && <p className="muted small">{parsed.note}</p>}
        {citations.length > 0 && (
          <ol className="hit-list" aria-label="Passages retrieved">
            {citations.map((c) => (
              <li key={c.chunkId} className="hit" aria-label={`Passage ${c.citation} ${c.title}`}>
                <div className="hit-head">
                  <strong>{c.citation}</strong> <span className="hit-title">{c.title}</span>
                  {c.section && <span className="muted"> › {c.section}</span>}
                  <span className="meta">
                    characters {c.offsets[0]}–{c.offsets[1]} · score {c.score} · document <code>{c.documentId}</code>
                  </span>
                  <span className="found-by">
                    found by{" "}
                    {c.foundBy.map((r) => (
                      <span key={r} className={`badge retriever-${r}`}>
                        {RETRIEVER[r] ?? r}
                      </span>
                    ))}
                  </span>
                </div>
                <blockquote className="passage">{c.text}</blockquote>
              </li>
            ))}
          </ol>
        )}
      </div>
    );
  }
  const findings = parsed.findings;
  return (
    <div className="citations">
      {parsed.note && <p className="muted small">{parsed.note}</p>}
      {findings.length > 0 && (
        <ol className="hit-list" aria-label="Memory entries retrieved">
          {findings.map((m) => (
            <li key={`${m.store}/${m.key}`} className="hit" aria-label={`Entry ${m.key}`}>
              <div className="hit-head">
                <code>{m.key}</code> <span className="muted">in {m.store}</span>
                <span className="meta">score {m.score}</span>
                <span className="found-by">
                  found by{" "}
                  {m.foundBy.map((r) => (
                    <span key={r} className={`badge retriever-${r}`}>
                      {RETRIEVER[r] ?? r}
                    </span>
                  ))}
                </span>
              </div>
              <blockquote className="passage">{m.snippet}</blockquote>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
