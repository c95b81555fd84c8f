import { applyRedactions, type Finding, GUARDRAIL_ENTRY } from "../../guardrails/index.js";
import type { StoredEvent } from "../../sessions/index.js";
import { contentText } from "./events.js";

/** What the `input` guardrails' decisions in a log say about its user messages. */
export interface InputDecisions {
  /** Messages an `input` guardrail blocked: never sent to the model. */
  blocked: Set<number>;
  /** Redactions whose original the log keeps, by message `seq`: applied to what the model is sent. */
  kept: Map<number, Finding[]>;
  /** Guardrails that decided on a message, by message `seq` (not run on it again). */
  decided: Map<number, Set<string>>;
}

/** Reads the `session.guardrail` entries of the `input` stage; null when the log has none. */
export function inputDecisions(events: readonly StoredEvent[]): InputDecisions | null {
  let found: InputDecisions | null = null;
  for (const event of events) {
    if (event.type !== GUARDRAIL_ENTRY || event.stage !== "input" || typeof event.targetSeq !== "number") continue;
    found ??= { blocked: new Set(), kept: new Map(), decided: new Map() };
    const seq = event.targetSeq;
    const names = found.decided.get(seq) ?? new Set<string>();
    names.add(String(event.guardrail));
    found.decided.set(seq, names);
    if (event.triggered !== true) continue;
    if (event.action === "block") found.blocked.add(seq);
    if (event.action === "redact" && event.originalKept === true && Array.isArray(event.spans)) {
      found.kept.set(seq, [...(found.kept.get(seq) ?? []), ...(event.spans as Finding[])]);
    }
  }
  return found;
}

/** The text of a user message as the model is sent it: null when blocked, with the kept redactions applied. */
export function userTextForModel(event: StoredEvent, decisions: InputDecisions | null): string | null {
  const text = contentText(event.content);
  if (!decisions) return text;
  if (decisions.blocked.has(event.seq)) return null;
  const kept = decisions.kept.get(event.seq);
  return kept ? applyRedactions(text, kept) : text;
}
