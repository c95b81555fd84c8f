import type { GuardrailCheck } from "@agent-platform/contract";
import { type CheckVerdict, type Finding, matchesOf } from "../findings.js";

type PromptInjectionCheck = Extract<GuardrailCheck, { type: "prompt_injection" }>;

export const DEFAULT_INJECTION_THRESHOLD = 3;

/**
 * The signals of text written to steer a model rather than to inform a reader, each with a weight. A text scores the
 * sum of the weights of the distinct signals it shows; at the threshold (default 3) it counts as an injection, so one
 * strong signal (an instruction to override the model's instructions, a request to send data somewhere) is enough,
 * and weaker ones (talk of a system prompt, a fake role marker) need company. No maintained detector fits (the npm
 * packages for this are unmaintained or call a hosted model), so these are written and measured here against the
 * labelled set in `test/guardrails/labelled/` (docs/guardrails.md has the figures and what they miss).
 */
const SIGNALS: readonly { kind: string; weight: number; pattern: RegExp }[] = [
  {
    kind: "instruction_override",
    weight: 3,
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.;:!?\n]{0,40}?\b(?:previous|prior|above|earlier|preceding|original|initial|all|any|every|the|these|your|its|system|developer)\b[^.;:!?\n]{0,30}?\b(?:instructions?|prompts?|rules|directions|guidelines?|directives|constraints|context|messages?|polic(?:y|ies))\b|\b(?:set\s+aside|forget|ignore|disregard)\s+(?:everything|what(?:ever)?)\s+(?:above|you\s+(?:were|have\s+been|'ve\s+been)\s+(?:told|given|instructed))|\bstop\s+following\s+(?:its|your|the)\s+(?:instructions|rules|guidelines)\b/gi,
  },
  {
    // The same in a few other languages (Spanish, French, German, Portuguese, Italian).
    kind: "instruction_override",
    weight: 3,
    pattern:
      /\b(?:ignora(?:r)?|olvida(?:r)?)\s+(?:todas\s+)?las\s+instrucciones\s+(?:anteriores|previas)|\bignore[rz]?\s+(?:toutes\s+)?les\s+instructions\s+(?:pr\u00e9c\u00e9dentes|ant\u00e9rieures)|\b(?:vergiss|ignoriere)\s+(?:alle\s+)?(?:vorherigen|bisherigen|obigen)\s+(?:anweisungen|instruktionen)|\bignore\s+(?:todas\s+)?as\s+instru\u00e7\u00f5es\s+anteriores|\bignora\s+(?:tutte\s+)?le\s+istruzioni\s+precedenti/gi,
  },
  {
    kind: "new_instructions",
    weight: 2,
    pattern:
      /\b(?:new|updated|real|actual|true|important|additional|secret|hidden)\s+(?:instructions?|directives?|orders|task)\s*(?::|follow|for\s+(?:the\s+)?(?:ai|assistant|model|agent))|\byour\s+(?:only|new|real)\s+(?:job|task|goal|purpose)\b/gi,
  },
  {
    kind: "exfiltration",
    weight: 3,
    pattern:
      /\b(?:send|post|forward|e-?mail|upload|exfiltrate|transmit|leak|share|append|include)\b[^.\n]{0,50}?\b(?:conversation|chat(?:\s+history)?|messages|transcript|system\s+prompt|instructions|secrets?|credentials?|passwords?|api[\s_-]?keys?|tokens?|personal\s+data|user(?:'s)?\s+data|context|e-?mail\s+address(?:es)?|addresses|phone\s+numbers?)\b[^.\n]{0,50}?\b(?:to|at|into|in)\b[^.\n]{0,40}?(?:https?:\/\/|www\.|[\w.-]+@[\w-]+\.[a-z]{2,}|\burl\b|\bendpoint\b|\bserver\b|!\[)/gi,
  },
  {
    kind: "role_reassignment",
    weight: 2,
    pattern:
      /\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you|pretend\s+(?:to\s+be|you\s+are)|act\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|dan\b|evil|developer\s+mode)|enter\s+(?:developer|god|dan|jailbreak)\s+mode|you\s+(?:must|will)\s+now\s+(?:act|behave|respond))/gi,
  },
  {
    kind: "addresses_the_model",
    weight: 2,
    pattern:
      /\b(?:(?:attention|note|message|instructions?)\s+(?:to|for)\s+(?:the\s+)?(?:ai|llm|assistant|language\s+model|chatbot|agent|model)s?\b|if\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|assistant|agent|gpt|claude)\b|(?:to|for)\s+(?:any|all|every)\s+(?:ai|llm|language\s+model|assistant|chatbot)s?\b|(?:ai|llm)s?(?:\s+(?:agents?|assistants?|models?))?\s+(?:reading|processing|summari[sz]ing)\s+this|\bwhen\s+you\s+(?:summari[sz]e|read|process|translate)\s+this\b|\bas\s+(?:the|an?)\s+(?:ai|assistant|language\s+model)\s*,)/gi,
  },
  {
    kind: "unrestricted",
    weight: 2,
    pattern:
      /\b(?:no|without)\s+(?:any\s+)?(?:restrictions|rules|limits|filters|guidelines)\b|\bunrestricted\b|\bjailbroken\b|\bdeveloper\s+mode\b/gi,
  },
  {
    kind: "system_prompt",
    weight: 1,
    pattern:
      /\b(?:system\s+prompt|your\s+(?:initial|original|hidden|secret|system)\s+(?:instructions|prompt)|reveal\s+your\s+(?:instructions|prompt|rules))\b/gi,
  },
  {
    kind: "role_marker",
    weight: 2,
    pattern:
      /(?:^|\n)\s*(?:#{2,}\s*)?(?:system|assistant|developer)\s*:|<\|(?:im_start|im_end|system|endoftext)\|>|\[\/?INST\]|<\/?(?:system|tool_result|function_results|instructions)>/gi,
  },
  {
    kind: "conceal_from_user",
    weight: 2,
    pattern:
      /\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention|reveal|show|alert|notify)\b[^.\n]{0,20}?\b(?:the\s+)?user\b|\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?user\b/gi,
  },
  {
    kind: "tool_directive",
    weight: 1,
    pattern:
      /\b(?:call|invoke|use|run|execute)\s+(?:the\s+)?[`"']?[a-z_]+(?:__[a-z_]+)?[`"']?\s+(?:tool|function)\b|\bexecute\s+(?:the\s+)?following\s+(?:command|code|script)\b/gi,
  },
  { kind: "invisible_text", weight: 1, pattern: /[\u200B-\u200D\u2060\uFEFF\u{E0000}-\u{E007F}]{3,}/gu },
];

export function checkPromptInjection(check: PromptInjectionCheck, text: string): CheckVerdict {
  const threshold = check.threshold ?? DEFAULT_INJECTION_THRESHOLD;
  const spans: Finding[] = [];
  let score = 0;
  for (const signal of SIGNALS) {
    let seen = false;
    for (const m of matchesOf(signal.pattern, text)) {
      seen = true;
      spans.push({ start: m.start, end: m.end, kind: signal.kind });
    }
    if (seen) score += signal.weight;
  }
  spans.sort((a, b) => a.start - b.start);
  const triggered = score >= threshold;
  return { triggered, spans: triggered ? spans : [], score };
}
