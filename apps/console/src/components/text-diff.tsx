import { diffLines, diffWordsWithSpace } from "diff";
import { useMemo } from "react";

/** Lines of unchanged context kept around each change; longer unchanged runs fold into one line. */
const CONTEXT = 3;

export type DiffLine = { kind: "added" | "removed" | "same" | "fold"; text: string };

/** A line diff with long unchanged runs folded (`… 12 unchanged lines`). Pure. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const lines: DiffLine[] = [];
  const changes = diffLines(before, after);
  changes.forEach((change, index) => {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    const texts = change.value.replace(/\n$/, "").split("\n");
    if (kind !== "same" || texts.length <= CONTEXT * 2 + 1) {
      for (const text of texts) lines.push({ kind, text });
      return;
    }
    const first = index === 0;
    const last = index === changes.length - 1;
    if (!first) for (const text of texts.slice(0, CONTEXT)) lines.push({ kind, text });
    const folded = texts.length - (first ? 0 : CONTEXT) - (last ? 0 : CONTEXT);
    lines.push({ kind: "fold", text: `… ${folded} unchanged lines` });
    if (!last) for (const text of texts.slice(-CONTEXT)) lines.push({ kind, text });
  });
  return lines;
}

/** A line diff drawn with +/- markers; long lines wrap instead of widening the page. */
export function LineDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const lines = useMemo(() => lineDiff(before, after), [before, after]);
  return (
    <section className="diff" aria-label={label}>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines have no identity but their position
        <div key={i} className={line.kind}>
          {line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "}
          {line.text}
        </div>
      ))}
    </section>
  );
}

/** Two texts word by word: what the first has and the second lacks is struck, what the second adds is marked. */
export function WordDiff({ before, after }: { before: string; after: string }) {
  const parts = useMemo(
    () => (before.length + after.length > 20_000 ? null : diffWordsWithSpace(before, after)),
    [before, after],
  );
  if (!parts) return <p className="muted small">Too long to compare word by word.</p>;
  return (
    <pre>
      {parts.map((part, i) =>
        part.added ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: positional parts of one diff
          <ins key={i}>{part.value}</ins>
        ) : part.removed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: positional parts of one diff
          <del key={i}>{part.value}</del>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: positional parts of one diff
          <span key={i}>{part.value}</span>
        ),
      )}
    </pre>
  );
}
