/** Where something was found in a text: UTF-16 offsets and a kind (`email`, `api_key`…), never the value. */
export interface Finding {
  start: number;
  end: number;
  kind: string;
}

/** What an offline check concluded about one text. */
export interface CheckVerdict {
  triggered: boolean;
  spans: Finding[];
  /** `prompt_injection`: the signals' score. */
  score?: number;
  /** `language`: the language detected (ISO 639-3). */
  language?: string;
}

/**
 * Findings in text order without overlaps: of two overlapping findings the longer (then the earlier) is kept, so a
 * card number is not also reported as a phone number inside it.
 */
export function withoutOverlaps(findings: readonly Finding[]): Finding[] {
  const byLength = [...findings].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Finding[] = [];
  for (const finding of byLength) {
    if (kept.some((k) => finding.start < k.end && k.start < finding.end)) continue;
    kept.push(finding);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** Every match of a global regular expression, with its offsets. */
export function* matchesOf(pattern: RegExp, text: string): Generator<{ start: number; end: number; value: string }> {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0].length === 0) {
      pattern.lastIndex++;
      continue;
    }
    yield { start: match.index, end: match.index + match[0].length, value: match[0] };
  }
}
