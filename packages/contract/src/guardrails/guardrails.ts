import { z } from "zod";
import { LIMITS } from "../common/limits.js";

/**
 * Guardrails of an agent (docs/guardrails.md): checks run on what goes into the model and what comes out of it, each
 * with a stage and an action. Versioned with the agent (`guardrails` of its configuration), replaced per session by
 * `guardrails` on session creation.
 */

export const GuardrailStageSchema = z
  .enum(["input", "tool_result", "output"])
  .describe(
    "`input`: user messages before the model sees them; `tool_result`: what a tool returns before the model sees it; " +
      "`output`: the model's text before it is written to the log (and so before anyone reads it as final)",
  );
export type GuardrailStage = z.infer<typeof GuardrailStageSchema>;

export const GuardrailActionSchema = z
  .enum(["block", "redact", "flag"])
  .describe(
    "`block`: the turn ends (`stopReason` `guardrail_blocked`) and nothing is sent on; `redact`: the offending spans " +
      "are replaced by `[REDACTED:<kind>]`; `flag`: the decision is recorded and nothing changes",
  );
export type GuardrailAction = z.infer<typeof GuardrailActionSchema>;

export const PII_KINDS = ["email", "phone", "card_number", "iban", "national_id"] as const;
export const PiiKindSchema = z.enum(PII_KINDS);

const RegexFlags = z
  .string()
  .max(2)
  .regex(/^[is]*$/, "only `i` and `s`")
  .refine((flags) => new Set(flags).size === flags.length, { message: "each flag at most once" });

export const GuardrailPatternSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,39}$/, "lower case letters, digits and `_`, starting with a letter (at most 40)")
      .describe("The finding's `kind` (and the redaction's label)"),
    pattern: z.string().min(1).max(1_000).describe("RE2 syntax (linear time: no backreferences or lookaround)"),
    flags: RegexFlags.optional().describe("`i` (case-insensitive), `s` (`.` matches newlines)"),
  })
  .strict()
  .describe("A pattern of your own: every match is a finding of kind `name`");

const PiiCheck = z
  .object({
    type: z.literal("pii"),
    kinds: z
      .array(PiiKindSchema)
      .min(1)
      .max(PII_KINDS.length)
      .optional()
      .describe(
        "Which built-in kinds to look for; default all: `email`, `phone`, `card_number` (Luhn-valid), `iban` " +
          "(mod-97 checksum), `national_id` (identity numbers with a checksum, see docs/guardrails.md)",
      ),
    patterns: z
      .array(GuardrailPatternSchema)
      .max(LIMITS.guardrailPatterns)
      .optional()
      .describe("Further patterns (account numbers, customer ids…)"),
    phoneRegion: z
      .string()
      .regex(/^[A-Z]{2}$/, "an ISO 3166-1 alpha-2 country code, e.g. `US`")
      .optional()
      .describe(
        "Country whose national phone formats count too; without it only international numbers (`+…`) are found",
      ),
  })
  .strict()
  .describe("Personal data, found offline");

const SecretsCheck = z
  .object({
    type: z.literal("secrets"),
    entropy: z
      .boolean()
      .optional()
      .describe("Also flag long random-looking tokens (high Shannon entropy) that match no known shape; default true"),
  })
  .strict()
  .describe("API keys of known shapes, private keys, JSON Web Tokens and high-entropy tokens, found offline");

const PromptInjectionCheck = z
  .object({
    type: z.literal("prompt_injection"),
    threshold: z
      .number()
      .min(1)
      .max(20)
      .optional()
      .describe("Score (sum of the signals' weights) from which the text counts as an injection; default 3"),
  })
  .strict()
  .describe("Signals of instructions aimed at the model (documented heuristics, offline)");

const LengthCheck = z
  .object({
    type: z.literal("length"),
    maxChars: z.number().int().min(1).max(10_000_000).describe("Longest text allowed, in characters"),
  })
  .strict()
  .describe("Texts longer than `maxChars`");

const LanguageCheck = z
  .object({
    type: z.literal("language"),
    allow: z
      .array(z.string().regex(/^[a-z]{3}$/, "an ISO 639-3 code, e.g. `eng`, `fra`, `deu`"))
      .min(1)
      .max(50)
      .describe("Languages allowed (ISO 639-3 codes)"),
    minChars: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe("Texts shorter than this are not judged (too short to tell); default 40"),
  })
  .strict()
  .describe("Texts written in a language not in `allow` (detected offline with franc)");

const ModerationCheck = z
  .object({
    type: z.literal("moderation"),
    model: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe("Moderation model of the `openai` provider; default `omni-moderation-latest`"),
    categories: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(32)
      .optional()
      .describe("Only these categories count (e.g. `harassment`, `self-harm/intent`); default every category"),
    threshold: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe("Score from which a category counts; default: the provider's own `flagged` decision"),
  })
  .strict()
  .describe("The `openai` provider's moderation endpoint (needs `OPENAI_API_KEY`); counted as a model call");

const LlmJudgeCheck = z
  .object({
    type: z.literal("llm_judge"),
    rubric: z
      .string()
      .min(1)
      .max(10_000)
      .describe("What an acceptable text is (the judge scores how well it meets it)"),
    model: z
      .string()
      .min(3)
      .max(200)
      .regex(/^[a-z][a-z0-9-]*\/\S+$/, "must be `<provider>/<model-id>`")
      .optional()
      .describe("Judge model; default `GUARDRAIL_JUDGE_MODEL`, else the session's model"),
    threshold: z.number().min(0).max(1).optional().describe("The text fails below this score; default 0.5"),
  })
  .strict()
  .describe("Asks a model to score the text against a rubric (in [0, 1]); counted on usage and budgets");

export const GuardrailCheckSchema = z
  .discriminatedUnion("type", [
    PiiCheck,
    SecretsCheck,
    PromptInjectionCheck,
    LengthCheck,
    LanguageCheck,
    ModerationCheck,
    LlmJudgeCheck,
  ])
  .describe("What the guardrail looks for");
export type GuardrailCheck = z.infer<typeof GuardrailCheckSchema>;
export type GuardrailCheckType = GuardrailCheck["type"];

/** Checks that find spans of text, the only ones that can `redact`. */
export const REDACTING_CHECKS: readonly GuardrailCheckType[] = ["pii", "secrets", "prompt_injection"];
/** Checks that call a model (counted on usage and budgets). */
export const MODEL_BACKED_CHECKS: readonly GuardrailCheckType[] = ["moderation", "llm_judge"];

export interface Guardrail {
  name?: string | undefined;
  stage: GuardrailStage;
  check: GuardrailCheck;
  action: GuardrailAction;
  keepOriginal?: boolean | undefined;
}

/** Typed explicitly: used by agents and sessions, its inferred type would lengthen every route's declaration. */
export const GuardrailSchema: z.ZodType<Guardrail, z.ZodTypeDef, Guardrail> = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, "lower case letters, digits, `_`, `.`, `-` (at most 64)")
      .optional()
      .describe("Names the guardrail in decisions; default `<stage>.<check type>`"),
    stage: GuardrailStageSchema,
    check: GuardrailCheckSchema,
    action: GuardrailActionSchema,
    keepOriginal: z
      .boolean()
      .optional()
      .describe(
        "Only with `redact` on `input`: the log keeps the message as sent and only the model is sent the redacted " +
          "text; default false (the log stores the redacted text)",
      ),
  })
  .strict()
  .superRefine((guardrail, ctx) => {
    if (guardrail.action === "redact" && !REDACTING_CHECKS.includes(guardrail.check.type)) {
      ctx.addIssue({
        code: "custom",
        path: ["action"],
        message: `\`redact\` needs a check that finds spans (${REDACTING_CHECKS.join(", ")}); use \`block\` or \`flag\``,
      });
    }
    if (guardrail.keepOriginal && !(guardrail.action === "redact" && guardrail.stage === "input")) {
      ctx.addIssue({
        code: "custom",
        path: ["keepOriginal"],
        message: "only a `redact` guardrail of the `input` stage can keep the original",
      });
    }
  })
  .describe("A check, where it runs, and what happens when it finds something");

export const GuardrailsSchema = z
  .array(GuardrailSchema)
  .max(LIMITS.agentGuardrails)
  .superRefine((guardrails, ctx) => {
    const seen = new Set<string>();
    guardrails.forEach((g, index) => {
      const name = guardrailName(g);
      if (seen.has(name)) {
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          message: `guardrail names must be unique ("${name}" is used twice: give one a \`name\`)`,
        });
      }
      seen.add(name);
    });
  })
  .describe("Checks on the agent's inputs, tool results and outputs, run in order (docs/guardrails.md)");

/** The name decisions carry: the guardrail's own, else `<stage>.<check type>`. */
export function guardrailName(guardrail: Pick<Guardrail, "name" | "stage" | "check">): string {
  return guardrail.name ?? `${guardrail.stage}.${guardrail.check.type}`;
}

export const GuardrailSpanSchema = z
  .object({
    start: z.number().int().min(0).describe("Offset of the first character (UTF-16 code units) in the checked text"),
    end: z.number().int().min(0).describe("Offset just past the last character"),
    kind: z
      .string()
      .describe("What was found: `email`, `card_number`, `api_key`, `private_key`, `instruction_override`…"),
  })
  .describe("Where a finding is (never its value)");
