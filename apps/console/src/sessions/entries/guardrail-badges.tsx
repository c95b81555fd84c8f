import type { SessionGuardrailEvent } from "@agent-platform/sdk";
import { foundKinds, verdictClass, verdictOf } from "../../guardrails/describe.js";

/**
 * On a message or tool use: what guardrails did to it, where it is read (the decision's own row says more). A redacted
 * message whose log keeps the original says that only the model was sent the redacted text.
 */
export function GuardrailBadges({ decisions }: { decisions: SessionGuardrailEvent[] | undefined }) {
  const shown = (decisions ?? []).filter((d) => d.triggered);
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((d) => {
        const verdict = verdictOf(d);
        const kinds = foundKinds(d);
        const what =
          d.stage === "tool_result" && verdict === "blocked"
            ? "result withheld"
            : d.stage === "input" && verdict === "blocked"
              ? "not sent to the model"
              : verdict === "redacted" && d.originalKept
                ? "redacted for the model (log keeps the original)"
                : verdict;
        return (
          <span key={d.seq} className={`badge guardrail-badge ${verdictClass(verdict)}`}>
            guardrail {d.guardrail}: {what}
            {kinds ? ` (${kinds})` : ""}
          </span>
        );
      })}
    </>
  );
}
