import type { SessionGuardrailEvent } from "@agent-platform/sdk";
import { decisionEffect, kindLabel, STAGE_NAME, verdictClass, verdictOf } from "../../guardrails/describe.js";
import { formatNumber, formatTime, formatUsd } from "../../lib/format.js";
import type { EntryProps } from "./entry-props.js";

/**
 * A guardrail's decision (`session.guardrail`): which guardrail, at which stage, which check, what it did and where its
 * findings are — offsets and kinds only, the log never holds the values — plus a model-backed check's score, reason and
 * call. The judge's reason is model-written: shown as text.
 */
export function GuardrailEntry({ entry }: EntryProps<SessionGuardrailEvent>) {
  const verdict = verdictOf(entry);
  return (
    <article className={`entry guardrail guardrail-${verdict}`} aria-label={`guardrail ${entry.guardrail} ${verdict}`}>
      <header>
        <strong>Guardrail</strong> <code>{entry.guardrail}</code>
        <span className={`badge ${verdictClass(verdict)}`}>{verdict}</span>
        <span className="meta">
          {STAGE_NAME[entry.stage]} · {entry.check}
          {entry.toolUseId ? ` · tool use ${entry.toolUseId}` : ""}
        </span>{" "}
        <time dateTime={entry.createdAt}>{formatTime(entry.createdAt)}</time>
      </header>
      <p className="small">{decisionEffect(entry)}</p>
      {entry.spans.length > 0 && (
        <ul className="spans small" aria-label="Findings">
          {entry.spans.map((span) => (
            <li key={`${span.start}-${span.end}-${span.kind}`}>
              <strong>{kindLabel(span.kind)}</strong>{" "}
              <span className="meta">
                characters {span.start}–{span.end}
              </span>
            </li>
          ))}
        </ul>
      )}
      <Details entry={entry} />
    </article>
  );
}

function Details({ entry }: { entry: SessionGuardrailEvent }) {
  const facts: [string, string][] = [];
  if (entry.score !== undefined) facts.push(["score", formatNumber(entry.score, 3)]);
  if (entry.categories?.length) facts.push(["categories", entry.categories.join(", ")]);
  if (entry.language) facts.push(["language", entry.language]);
  if (entry.reason) facts.push(["judge's reason", entry.reason]);
  if (entry.usage) {
    const cost = entry.costUsd === undefined || entry.costUsd === null ? "cost unknown" : formatUsd(entry.costUsd);
    facts.push([
      "model call",
      `${entry.usage.model}: ${formatNumber(entry.usage.inputTokens)} input · ${formatNumber(
        entry.usage.outputTokens,
      )} output tokens · ${cost}`,
    ]);
  }
  if (facts.length === 0) return null;
  return (
    <dl>
      {facts.map(([label, value]) => (
        <div key={label} className="contents">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
