import type { Agent } from "@agent-platform/sdk";
import { diffLines } from "diff";
import { useMemo, useState } from "react";
import { configText } from "./agent-config.js";

/** Lines of unchanged context kept around each change; longer unchanged runs fold into one line. */
const CONTEXT = 3;

type Line = { kind: "added" | "removed" | "same" | "fold"; text: string };

function diffOf(before: string, after: string): Line[] {
  const lines: Line[] = [];
  for (const change of diffLines(before, after)) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    const texts = change.value.replace(/\n$/, "").split("\n");
    if (kind !== "same" || texts.length <= CONTEXT * 2 + 1) {
      for (const text of texts) lines.push({ kind, text });
      continue;
    }
    const first = lines.length === 0;
    if (!first) for (const text of texts.slice(0, CONTEXT)) lines.push({ kind, text });
    lines.push({ kind: "fold", text: `… ${texts.length - (first ? CONTEXT : CONTEXT * 2)} unchanged lines` });
    for (const text of texts.slice(-CONTEXT)) lines.push({ kind, text });
  }
  return lines;
}

/** A readable diff of the configuration between any two versions of the history. */
export function VersionDiff({ versions }: { versions: Agent[] }) {
  const numbers = versions.map((v) => v.version).sort((a, b) => a - b);
  // Until a person picks, the two newest versions (which change when an edit or a restore publishes one).
  const [picked, setPicked] = useState<{ from?: number; to?: number }>({});
  const from = picked.from ?? numbers.at(-2) ?? numbers[0];
  const to = picked.to ?? numbers.at(-1);
  const setFrom = (value: number) => setPicked((p) => ({ ...p, from: value }));
  const setTo = (value: number) => setPicked((p) => ({ ...p, to: value }));
  const before = versions.find((v) => v.version === from);
  const after = versions.find((v) => v.version === to);
  const lines = useMemo(() => (before && after ? diffOf(configText(before), configText(after)) : []), [before, after]);
  if (numbers.length < 2) return <p className="muted">Only one version so far: an edit publishes the next.</p>;
  const changed = lines.some((l) => l.kind === "added" || l.kind === "removed");
  return (
    <>
      <div className="filters">
        <label>
          From version
          <select value={from} onChange={(e) => setFrom(Number(e.target.value))}>
            {numbers.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          To version
          <select value={to} onChange={(e) => setTo(Number(e.target.value))}>
            {numbers.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </div>
      {changed ? (
        <section className="diff" aria-label={`Changes from version ${from} to version ${to}`}>
          {lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines have no identity but their position
            <div key={i} className={line.kind}>
              {line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "}
              {line.text}
            </div>
          ))}
        </section>
      ) : (
        <p className="muted">
          Versions {from} and {to} have the same configuration.
        </p>
      )}
    </>
  );
}
