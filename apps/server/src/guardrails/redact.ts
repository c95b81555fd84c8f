import type { Finding } from "./findings.js";

/** What stands for a redacted span in the text sent on (and stored, unless the original is kept). */
export function redactionMark(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/**
 * The text with every span replaced by its mark. Spans are offsets in `text`; overlapping ones are merged into one
 * mark named after the earliest.
 */
export function applyRedactions(text: string, spans: readonly Finding[]): string {
  if (spans.length === 0) return text;
  const merged: Finding[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  let out = "";
  let at = 0;
  for (const span of merged) {
    out += text.slice(at, span.start) + redactionMark(span.kind);
    at = Math.min(span.end, text.length);
  }
  return out + text.slice(at);
}
