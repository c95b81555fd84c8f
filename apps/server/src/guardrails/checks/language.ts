import type { GuardrailCheck } from "@agent-platform/contract";
import { franc } from "franc-min";
import type { CheckVerdict } from "../findings.js";

type LanguageCheck = Extract<GuardrailCheck, { type: "language" }>;

export const DEFAULT_LANGUAGE_MIN_CHARS = 40;

/**
 * The text's language by franc (franc-min: the 82 languages with 8 million speakers or more, trigram statistics,
 * offline). Texts shorter than `minChars` are not judged (a few words are often attributed to a wrong language), and
 * neither are texts franc cannot place (`und`).
 */
export function checkLanguage(check: LanguageCheck, text: string): CheckVerdict {
  const minChars = check.minChars ?? DEFAULT_LANGUAGE_MIN_CHARS;
  if (text.trim().length < minChars) return { triggered: false, spans: [] };
  const language = franc(text, { minLength: minChars });
  if (language === "und") return { triggered: false, spans: [] };
  return { triggered: !check.allow.includes(language), spans: [], language };
}
