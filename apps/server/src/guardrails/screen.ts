import type { GuardrailStage } from "@agent-platform/contract";
import type { Finding } from "./findings.js";
import { recordDecisionMetric } from "./metric.js";
import { isOfflineCheck, runOfflineCheck } from "./offline-check.js";
import type { GuardrailDecision, NamedGuardrail } from "./policy.js";
import { applyRedactions } from "./redact.js";

/** What the offline guardrails of one stage decided about one text. */
export interface OfflineScreen {
  /** One per guardrail that triggered, in configuration order. */
  decisions: GuardrailDecision[];
  blocked: boolean;
  /** The text to send on (and store, where the original is not kept): redacted where a `redact` guardrail triggered. */
  text: string;
  /** Spans of the redactions whose original is kept (only the model is sent the redacted text). */
  keptSpans: Finding[];
}

export interface ScreenOptions {
  /** Offsets of the decisions refer to this entry. */
  targetSeq?: number;
  toolUseId?: string;
  /** Guardrails already decided for this text (by name): not run again. */
  decided?: ReadonlySet<string>;
  /**
   * The text is screened before it is stored (ingestion, a tool result, a reply): a redaction without `keepOriginal`
   * changes what is stored. When false (a message already in the log) every redaction keeps the original.
   */
  beforeStore: boolean;
}

/**
 * Runs the offline guardrails of a stage on a text, in order, each on the text as the guardrail before it left it
 * (a redaction by the first is not found again by the second). Model-backed guardrails are skipped (the loop runs
 * them). Pure apart from the decision metric.
 */
export function screenOffline(
  guardrails: readonly NamedGuardrail[],
  stage: GuardrailStage,
  original: string,
  options: ScreenOptions,
): OfflineScreen {
  const decisions: GuardrailDecision[] = [];
  let blocked = false;
  let stored: Finding[] = [];
  let kept: Finding[] = [];
  for (const { name, guardrail } of guardrails) {
    if (!isOfflineCheck(guardrail.check) || options.decided?.has(name)) continue;
    // Offsets stay those of the original text: redactions found so far are applied only at the end.
    const verdict = runOfflineCheck(guardrail.check, original);
    if (!verdict.triggered) continue;
    const spans = verdict.spans.filter((s) => !covered(s, stored) && !covered(s, kept));
    if (guardrail.action === "redact" && spans.length === 0) continue;
    const keepsOriginal = guardrail.action === "redact" && (guardrail.keepOriginal === true || !options.beforeStore);
    if (guardrail.action === "redact") {
      if (keepsOriginal) kept = [...kept, ...spans];
      else stored = [...stored, ...spans];
    }
    if (guardrail.action === "block") blocked = true;
    decisions.push({
      guardrail: name,
      stage,
      check: guardrail.check.type,
      action: guardrail.action,
      triggered: true,
      ...(options.targetSeq !== undefined ? { targetSeq: options.targetSeq } : {}),
      ...(options.toolUseId !== undefined ? { toolUseId: options.toolUseId } : {}),
      spans: guardrail.action === "redact" ? spans : verdict.spans,
      ...(guardrail.action === "redact" ? { originalKept: keepsOriginal } : {}),
      ...(verdict.score !== undefined ? { score: verdict.score } : {}),
      ...(verdict.language !== undefined ? { language: verdict.language } : {}),
    });
    recordDecisionMetric(stage, guardrail.check.type, guardrail.action);
  }
  return { decisions, blocked, text: applyRedactions(original, stored), keptSpans: kept };
}

function covered(span: Finding, by: readonly Finding[]): boolean {
  return by.some((b) => b.start <= span.start && span.end <= b.end);
}
