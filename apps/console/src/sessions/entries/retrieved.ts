/** A passage as `knowledge_search` returns it to the model (runtime/tools/builtin/knowledge-search.ts). */
export interface Citation {
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
export interface MemoryFinding {
  store: string;
  key: string;
  snippet: string;
  bytes: number;
  score: number;
  foundBy: string[];
}

export type Retrieved =
  | { tool: "knowledge_search"; citations: Citation[]; note?: string }
  | { tool: "memory_search"; findings: MemoryFinding[]; note?: string };

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
  return (
    typeof c?.title === "string" && typeof c.text === "string" && Array.isArray(c.offsets) && Array.isArray(c.foundBy)
  );
};
const isMemoryFinding = (r: unknown): r is MemoryFinding => {
  const m = r as MemoryFinding;
  return typeof m?.key === "string" && typeof m.snippet === "string" && Array.isArray(m.foundBy);
};

/**
 * The passages `knowledge_search` or the entries `memory_search` returned, from the tool result's text; undefined when
 * the result is not such a list (another tool, an older shape, an error). Pure.
 */
export function parseRetrieved(tool: string, text: string): Retrieved | undefined {
  if (tool !== "knowledge_search" && tool !== "memory_search") return undefined;
  const parsed = parse(text);
  if (!parsed) return undefined;
  const note = parsed.note !== undefined ? { note: parsed.note } : {};
  if (tool === "knowledge_search") {
    return parsed.results.every(isCitation) ? { tool, citations: parsed.results, ...note } : undefined;
  }
  return parsed.results.every(isMemoryFinding) ? { tool, findings: parsed.results, ...note } : undefined;
}
