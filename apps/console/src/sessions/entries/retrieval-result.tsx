import type { ReactNode } from "react";

/** A passage as `knowledge_search` returns it to the model (runtime/tools/builtin/knowledge-search.ts). */
interface Citation {
  citation: string;
  chunkId: string;
  documentId: string;
  title: string;
  section?: string;
  offsets: [number, number];
  text: string;
  score: number;
  foundBy: string[];
  metadata?: Record<string, string>;
}

/** An entry as `memory_search` returns it (runtime/tools/builtin/memory-search.ts). */
interface MemoryFinding {
  store: string;
  key: string;
  snippet: string;
  bytes: number;
  score: number;
  foundBy: string[];
}

const RETRIEVER: Record<string, string> = { fulltext: "words", semantic: "meaning" };

function parse(text: string): { results: unknown[]; note?: string } | undefined {
  try {
    const value = JSON.parse(text) as { results?: unknown; note?: unknown };
    if (!value || !Array.isArray(value.results)) return undefined;
    return { results: value.results, ...(typeof value.note === "string" ? { note: value.note } : {}) };
  } catch {
    return undefined;
  }
}

const isCitation = (r: unknown): r is Citation => {
  const c = r as Citation;
  return typeof c?.title === "string" && typeof c.text === "string" && Array.isArray(c.offsets);
};
const isMemoryFinding = (r: unknown): r is MemoryFinding => {
  const m = r as MemoryFinding;
  return typeof m?.key === "string" && typeof m.snippet === "string";
};

/**
 * What `knowledge_search` and `memory_search` retrieved, readably: each cited passage with its document, section and
 * character offsets (the passage is document text: shown as text), or each memory entry with its store and key.
 * Undefined when the result is not such a list (another tool, an older shape): the caller shows it as text.
 */
export function retrievalView(tool: string, text: string): ReactNode | undefined {
  if (tool !== "knowledge_search" && tool !== "memory_search") return undefined;
  const parsed = parse(text);
  if (!parsed) return undefined;
  if (tool === "knowledge_search") {
    if (!parsed.results.every(isCitation)) return undefined;
    const citations = parsed.results as Citation[];
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
  if (!parsed.results.every(isMemoryFinding)) return undefined;
  const findings = parsed.results as MemoryFinding[];
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
