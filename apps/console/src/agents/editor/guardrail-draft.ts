import type { Guardrail, GuardrailCheck } from "@agent-platform/sdk";
import {
  type GuardrailAction,
  type GuardrailCheckType,
  type GuardrailStage,
  PII_KINDS,
  REDACTING_CHECKS,
} from "../../guardrails/describe.js";

export type PiiKind = (typeof PII_KINDS)[number];

export interface PatternDraft {
  name: string;
  pattern: string;
  ignoreCase: boolean;
  dotAll: boolean;
}

/**
 * A guardrail as the form edits it: every check's settings side by side (as text where the person types numbers or
 * lists), so that switching the check type back and forth loses nothing; only the chosen check's are sent.
 */
export interface GuardrailDraft {
  name: string;
  stage: GuardrailStage;
  action: GuardrailAction;
  keepOriginal: boolean;
  type: GuardrailCheckType;
  /** pii: the kinds looked for (none ticked: every kind) */
  kinds: PiiKind[];
  patterns: PatternDraft[];
  phoneRegion: string;
  /** secrets */
  entropy: boolean;
  /** prompt_injection (score), moderation (0–1), llm_judge (0–1) */
  threshold: string;
  /** length */
  maxChars: string;
  /** language: ISO 639-3 codes, separated by commas or spaces */
  allow: string;
  minChars: string;
  /** moderation: its model; llm_judge: the judge model */
  model: string;
  /** moderation: categories, separated by commas */
  categories: string;
  /** llm_judge */
  rubric: string;
}

export function newGuardrailDraft(): GuardrailDraft {
  return {
    name: "",
    stage: "input",
    action: "redact",
    keepOriginal: false,
    type: "pii",
    kinds: [],
    patterns: [],
    phoneRegion: "",
    entropy: true,
    threshold: "",
    maxChars: "",
    allow: "",
    minChars: "",
    model: "",
    categories: "",
    rubric: "",
  };
}

/** The form's rows of an agent's guardrails. */
export function guardrailDraftOf(guardrail: Guardrail): GuardrailDraft {
  const draft: GuardrailDraft = {
    ...newGuardrailDraft(),
    name: guardrail.name ?? "",
    stage: guardrail.stage,
    action: guardrail.action,
    keepOriginal: guardrail.keepOriginal ?? false,
    type: guardrail.check.type,
  };
  const check = guardrail.check;
  const text = (value: number | undefined) => (value === undefined ? "" : String(value));
  switch (check.type) {
    case "pii":
      draft.kinds = [...(check.kinds ?? [])];
      draft.patterns = (check.patterns ?? []).map((p) => ({
        name: p.name,
        pattern: p.pattern,
        ignoreCase: p.flags?.includes("i") ?? false,
        dotAll: p.flags?.includes("s") ?? false,
      }));
      draft.phoneRegion = check.phoneRegion ?? "";
      break;
    case "secrets":
      draft.entropy = check.entropy ?? true;
      break;
    case "prompt_injection":
      draft.threshold = text(check.threshold);
      break;
    case "length":
      draft.maxChars = text(check.maxChars);
      break;
    case "language":
      draft.allow = check.allow.join(", ");
      draft.minChars = text(check.minChars);
      break;
    case "moderation":
      draft.model = check.model ?? "";
      draft.categories = (check.categories ?? []).join(", ");
      draft.threshold = text(check.threshold);
      break;
    case "llm_judge":
      draft.rubric = check.rubric;
      draft.model = check.model ?? "";
      draft.threshold = text(check.threshold);
      break;
  }
  return draft;
}

/** Whether the action can be chosen with the check (only checks that find spans can redact). */
export function actionAllowed(type: GuardrailCheckType, action: GuardrailAction): boolean {
  return action !== "redact" || REDACTING_CHECKS.includes(type);
}

/** Whether the guardrail may keep the original text in the log (`redact` on `input` only, as the contract says). */
export function keepOriginalAllowed(draft: Pick<GuardrailDraft, "stage" | "action">): boolean {
  return draft.stage === "input" && draft.action === "redact";
}

/**
 * The guardrail the API takes. Numbers typed as text are sent as numbers (a text that is not one is sent as it is, so
 * that the API's field error names it); empty settings are left out (the check's defaults apply).
 */
export function guardrailOf(draft: GuardrailDraft): Guardrail {
  const list = (text: string) =>
    text
      .split(/[\s,]+/)
      .map((item) => item.trim())
      .filter(Boolean);
  const num = (text: string) => (text !== "" && Number.isFinite(Number(text)) ? Number(text) : text) as number;
  const optionalNumber = <K extends string>(key: K, text: string) =>
    (text.trim() ? { [key]: num(text.trim()) } : {}) as Partial<Record<K, number>>;
  let check: GuardrailCheck;
  switch (draft.type) {
    case "pii":
      check = {
        type: "pii",
        ...(draft.kinds.length ? { kinds: [...draft.kinds] } : {}),
        ...(draft.patterns.length
          ? {
              patterns: draft.patterns.map((p) => {
                const flags = `${p.ignoreCase ? "i" : ""}${p.dotAll ? "s" : ""}`;
                return { name: p.name.trim(), pattern: p.pattern, ...(flags ? { flags } : {}) };
              }),
            }
          : {}),
        ...(draft.phoneRegion.trim() ? { phoneRegion: draft.phoneRegion.trim().toUpperCase() } : {}),
      };
      break;
    case "secrets":
      check = { type: "secrets", ...(draft.entropy ? {} : { entropy: false }) };
      break;
    case "prompt_injection":
      check = { type: "prompt_injection", ...optionalNumber("threshold", draft.threshold) };
      break;
    case "length":
      check = { type: "length", maxChars: num(draft.maxChars.trim()) };
      break;
    case "language":
      check = {
        type: "language",
        allow: list(draft.allow.toLowerCase()),
        ...optionalNumber("minChars", draft.minChars),
      };
      break;
    case "moderation":
      check = {
        type: "moderation",
        ...(draft.model.trim() ? { model: draft.model.trim() } : {}),
        ...(list(draft.categories).length ? { categories: list(draft.categories) } : {}),
        ...optionalNumber("threshold", draft.threshold),
      };
      break;
    case "llm_judge":
      check = {
        type: "llm_judge",
        rubric: draft.rubric,
        ...(draft.model.trim() ? { model: draft.model.trim() } : {}),
        ...optionalNumber("threshold", draft.threshold),
      };
      break;
  }
  return {
    ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    stage: draft.stage,
    check,
    action: draft.action,
    ...(draft.keepOriginal && keepOriginalAllowed(draft) ? { keepOriginal: true } : {}),
  };
}

/** What is missing before a guardrail can be sent (the API checks the rest), by its path as the API names it. */
export function missingSettings(draft: GuardrailDraft): Map<string, string[]> {
  const missing = new Map<string, string[]>();
  const need = (path: string, value: string, what: string) => {
    if (!value.trim()) missing.set(path, [`${what} is needed`]);
  };
  if (draft.type === "length") need("check.maxChars", draft.maxChars, "the most characters allowed");
  if (draft.type === "language") need("check.allow", draft.allow, "at least one language");
  if (draft.type === "llm_judge") need("check.rubric", draft.rubric, "a rubric");
  if (draft.type === "pii") {
    draft.patterns.forEach((p, i) => {
      need(`check.patterns.${i}.name`, p.name, "a name");
      need(`check.patterns.${i}.pattern`, p.pattern, "a pattern");
    });
  }
  return missing;
}

/**
 * The API's field errors of the guardrails (`request.invalid` issues under `body.guardrails`, as `fieldErrors` gives
 * them: `2.check.patterns.0.pattern: …`), by the guardrail they concern and, within it, by the setting: the form shows
 * each under its own field. `agent.invalid_model` about a guardrail ("Guardrail 1 (…): …") goes to that guardrail.
 */
export function guardrailErrors(messages: readonly string[]): {
  byGuardrail: Map<number, Map<string, string[]>>;
  other: string[];
} {
  const byGuardrail = new Map<number, Map<string, string[]>>();
  const other: string[] = [];
  const add = (index: number, field: string, message: string) => {
    const fields = byGuardrail.get(index) ?? new Map<string, string[]>();
    fields.set(field, [...(fields.get(field) ?? []), message]);
    byGuardrail.set(index, fields);
  };
  for (const message of messages) {
    const path = /^(\d+)(?:\.([\w.]+))?: (.*)$/s.exec(message);
    if (path) {
      add(Number(path[1]), path[2] ?? "", path[3]!);
      continue;
    }
    // "Guardrail 0 (input.moderation): moderation: Provider …" — its index counts from 0, as paths do.
    const model = /^Guardrail (\d+) \([^)]*\): (?:model: )?(.*)$/s.exec(message);
    if (model) add(Number(model[1]), "check.model", model[2]!);
    else other.push(message);
  }
  return { byGuardrail, other };
}
