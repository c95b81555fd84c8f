import type { GuardrailCheck } from "@agent-platform/contract";
import { checkLanguage } from "./checks/language.js";
import { checkPii } from "./checks/pii.js";
import { checkPromptInjection } from "./checks/prompt-injection.js";
import { checkSecrets } from "./checks/secrets.js";
import type { CheckVerdict } from "./findings.js";

export type OfflineCheck = Exclude<GuardrailCheck, { type: "moderation" | "llm_judge" }>;

export function isOfflineCheck(check: GuardrailCheck): check is OfflineCheck {
  return check.type !== "moderation" && check.type !== "llm_judge";
}

/** Runs one offline check on a text (pure, synchronous). */
export function runOfflineCheck(check: OfflineCheck, text: string): CheckVerdict {
  switch (check.type) {
    case "pii":
      return checkPii(check, text);
    case "secrets":
      return checkSecrets(check, text);
    case "prompt_injection":
      return checkPromptInjection(check, text);
    case "language":
      return checkLanguage(check, text);
    case "length":
      return text.length > check.maxChars
        ? { triggered: true, spans: [{ start: check.maxChars, end: text.length, kind: "over_length" }] }
        : { triggered: false, spans: [] };
  }
}
