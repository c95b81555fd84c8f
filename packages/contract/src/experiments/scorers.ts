import { z } from "zod";
import { LIMITS } from "../common/limits.js";

const ContainsScorer = z
  .object({
    type: z.literal("contains"),
    value: z.string().min(1).max(10_000),
    caseSensitive: z.boolean().optional().describe("Default false"),
  })
  .strict()
  .describe("Passes (score 1) when the output contains `value`");

const ExactMatchScorer = z
  .object({
    type: z.literal("exact_match"),
    caseSensitive: z.boolean().optional().describe("Default true"),
    trim: z.boolean().optional().describe("Trim surrounding whitespace of both sides first; default true"),
  })
  .strict()
  .describe("Passes when the output equals the case's `expected` (a case without `expected` scores 0)");

const RegexScorer = z
  .object({
    type: z.literal("regex"),
    pattern: z.string().min(1).max(1_000).describe("RE2 syntax (linear time: no backreferences or lookaround)"),
    flags: z
      .string()
      .max(3)
      .regex(/^[ims]*$/, "only `i`, `m` and `s`")
      .refine((flags) => new Set(flags).size === flags.length, { message: "each flag at most once" })
      .optional(),
  })
  .strict()
  .describe("Passes when the pattern matches somewhere in the output");

const JsonValidScorer = z
  .object({ type: z.literal("json_valid") })
  .strict()
  .describe("Passes when the output is valid JSON");

const NotEmptyScorer = z
  .object({ type: z.literal("not_empty") })
  .strict()
  .describe("Passes when the output has a non-whitespace character");

const LlmJudgeScorer = z
  .object({
    type: z.literal("llm_judge"),
    rubric: z.string().min(1).max(10_000).optional().describe("What a good answer is; default: correct and helpful"),
    model: z
      .string()
      .min(3)
      .max(200)
      .regex(/^[a-z][a-z0-9-]*\/\S+$/, "must be `<provider>/<model-id>`")
      .optional()
      .describe("Judge model; default `EXPERIMENT_JUDGE_MODEL`, else the task's model"),
  })
  .strict()
  .describe("Asks a model for a score in [0, 1] and a reason; passes at 0.5 or more");

export const ScorerSchema = z.discriminatedUnion("type", [
  ContainsScorer,
  ExactMatchScorer,
  RegexScorer,
  JsonValidScorer,
  NotEmptyScorer,
  LlmJudgeScorer,
]);

export const SCORER_TYPES = ["contains", "exact_match", "regex", "json_valid", "not_empty", "llm_judge"] as const;
export type ScorerType = (typeof SCORER_TYPES)[number];

export const ScorerListSchema = z
  .array(ScorerSchema)
  .min(1)
  .max(LIMITS.experimentScorers)
  .superRefine((scorers, ctx) => {
    const seen = new Map<string, number>();
    scorers.forEach((scorer, index) => {
      const first = seen.get(scorer.type);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [index, "type"],
          message: `scorer type ${scorer.type} repeats entry ${first}: types must be distinct`,
        });
      }
      seen.set(scorer.type, index);
    });
  })
  .describe(`1 to ${LIMITS.experimentScorers} scorers of distinct types`);

export const ScoreSchema = z.object({
  type: z.enum(SCORER_TYPES),
  score: z.number().min(0).max(1),
  passed: z.boolean(),
  reason: z.string().nullable().describe("Why, where meaningful (a judge's reason, what was missing)"),
});

export type Scorer = z.infer<typeof ScorerSchema>;
export type Score = z.infer<typeof ScoreSchema>;
