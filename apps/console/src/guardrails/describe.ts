import type { Guardrail, GuardrailCheck, SessionGuardrailEvent } from "@agent-platform/sdk";

export type GuardrailStage = Guardrail["stage"];
export type GuardrailAction = Guardrail["action"];
export type GuardrailCheckType = GuardrailCheck["type"];

export const STAGES: { value: GuardrailStage; label: string }[] = [
  { value: "input", label: "input — the user's messages, before the model" },
  { value: "tool_result", label: "tool results — what tools bring back, before the model" },
  { value: "output", label: "output — the model's replies, before they are final" },
];

export const STAGE_NAME: Record<GuardrailStage, string> = {
  input: "input",
  tool_result: "tool result",
  output: "output",
};

export const ACTIONS: { value: GuardrailAction; label: string }[] = [
  { value: "block", label: "block — end the turn, send nothing on" },
  { value: "redact", label: "redact — replace what was found" },
  { value: "flag", label: "flag — record it, change nothing" },
];

export const CHECKS: { value: GuardrailCheckType; label: string }[] = [
  { value: "pii", label: "personal data (pii)" },
  { value: "secrets", label: "secrets and credentials" },
  { value: "prompt_injection", label: "prompt injection" },
  { value: "length", label: "length" },
  { value: "language", label: "language" },
  { value: "moderation", label: "moderation (OpenAI, model-backed)" },
  { value: "llm_judge", label: "LLM judge with a rubric (model-backed)" },
];

/** Checks that find spans of text: the only ones that can `redact` (the contract's `REDACTING_CHECKS`). */
export const REDACTING_CHECKS: readonly GuardrailCheckType[] = ["pii", "secrets", "prompt_injection"];

export const PII_KINDS = [
  "email",
  "phone",
  "card_number",
  "iban",
  "national_id",
] as const satisfies readonly NonNullable<Extract<GuardrailCheck, { type: "pii" }>["kinds"]>[number][];

/** `card_number` → `card number`. */
export function kindLabel(kind: string): string {
  return kind.replace(/_/g, " ");
}

/** The check and its settings in a line: `pii: card number, email · pattern order_id`. */
export function checkSummary(check: GuardrailCheck): string {
  switch (check.type) {
    case "pii": {
      const parts = [check.kinds?.length ? check.kinds.map(kindLabel).join(", ") : "every kind"];
      if (check.patterns?.length) parts.push(`patterns ${check.patterns.map((p) => p.name).join(", ")}`);
      if (check.phoneRegion) parts.push(`phone numbers of ${check.phoneRegion}`);
      return `personal data: ${parts.join(" · ")}`;
    }
    case "secrets":
      return check.entropy === false
        ? "secrets (known shapes only)"
        : "secrets (known shapes and random-looking tokens)";
    case "prompt_injection":
      return `prompt injection, from a score of ${check.threshold ?? 3}`;
    case "length":
      return `length: at most ${check.maxChars.toLocaleString()} characters`;
    case "language":
      return `language: ${check.allow.join(", ")}${check.minChars ? ` (texts from ${check.minChars} characters)` : ""}`;
    case "moderation":
      return `moderation${check.model ? ` with ${check.model}` : ""}${
        check.categories?.length ? `: ${check.categories.join(", ")}` : ""
      }${check.threshold !== undefined ? ` from ${check.threshold}` : ""}`;
    case "llm_judge":
      return `LLM judge${check.model ? ` (${check.model})` : ""}, passes from ${check.threshold ?? 0.5}: ${
        check.rubric.length > 120 ? `${check.rubric.slice(0, 120)}…` : check.rubric
      }`;
  }
}

/** What a decision did, in a word: `blocked`, `redacted`, `flagged`, or `passed` (a model-backed check that found nothing). */
export function verdictOf(decision: Pick<SessionGuardrailEvent, "triggered" | "action">): string {
  if (!decision.triggered) return "passed";
  return { block: "blocked", redact: "redacted", flag: "flagged" }[decision.action];
}

/** The badge class of a verdict (colours shared with the rest of the console). */
export function verdictClass(verdict: string): string {
  return verdict === "blocked" ? "failed" : verdict === "passed" ? "pass" : "waiting";
}

/** The distinct kinds a decision found, in words: `card number, email`. */
export function foundKinds(decision: Pick<SessionGuardrailEvent, "spans">): string {
  return [...new Set(decision.spans.map((span) => kindLabel(span.kind)))].join(", ");
}

/** What the decision did to what it checked, in a sentence (docs/guardrails.md, "What a block writes"). */
export function decisionEffect(d: SessionGuardrailEvent): string {
  if (!d.triggered) return "Passed: the check found nothing; the text went on unchanged.";
  const spans = d.spans.length === 1 ? "1 finding" : `${d.spans.length} findings`;
  const message = d.targetSeq !== undefined ? `message #${d.targetSeq}` : "the message";
  switch (`${d.stage}/${d.action}`) {
    case "input/block":
      return `The ${message} was not sent to the model, in this turn or a later one; the turn ended.`;
    case "input/redact":
      return d.originalKept
        ? `The log keeps the ${message} as sent; the model was sent it with ${spans} redacted.`
        : `The ${message} is stored with ${spans} redacted: neither the log nor the model has them.`;
    case "tool_result/block":
      return "The tool's result was withheld (neither stored nor sent to the model); the turn ended.";
    case "tool_result/redact":
      return `The tool's result was stored and sent to the model with ${spans} redacted.`;
    case "output/block":
      return "The reply was not written: nobody received it as final text (text shown live was taken back); the turn ended.";
    case "output/redact":
      return `The reply${d.targetSeq !== undefined ? ` #${d.targetSeq}` : ""} was written with ${spans} redacted.`;
    default:
      return "Recorded; nothing was changed.";
  }
}
