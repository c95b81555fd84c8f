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

const TrajectoryScorer = z
  .object({
    type: z.literal("trajectory"),
    mode: z
      .enum(["exact", "in_order", "any_order"])
      .default("in_order")
      .describe(
        "`exact`: the calls are the expected ones, in order, and nothing else; `in_order` (default): the expected calls " +
          "appear in this order, other calls may come between; `any_order`: the expected calls all appear, in any order",
      ),
  })
  .strict()
  .describe(
    "Agent tasks: compares the tool calls of the case's session with the case's `expectedTools` (arguments matched " +
      "by subset); scores F1, reports precision/recall/F1; passes when the mode's condition holds",
  );

const CallCountScorer = z
  .object({
    type: z.literal("call_count"),
    of: z.enum(["tool_calls", "model_calls"]).describe("What to count in the case's run"),
    max: z.number().int().min(0).max(10_000),
    min: z.number().int().min(0).max(10_000).optional().describe("Default 0"),
  })
  .strict()
  .describe("Passes when the number of tool calls or model calls of the case is within [min, max]");

const CostScorer = z
  .object({ type: z.literal("cost"), maxUsd: z.number().min(0).max(1_000_000) })
  .strict()
  .describe("Passes when the task's estimated cost (judges excluded) is at most `maxUsd`; an unknown price fails");

const LatencyScorer = z
  .object({ type: z.literal("latency"), maxMs: z.number().int().min(1).max(86_400_000) })
  .strict()
  .describe("Passes when the task took at most `maxMs` milliseconds (from the case's start to its output)");

export const ScorerSchema = z.discriminatedUnion("type", [
  ContainsScorer,
  ExactMatchScorer,
  RegexScorer,
  JsonValidScorer,
  NotEmptyScorer,
  LlmJudgeScorer,
  TrajectoryScorer,
  CallCountScorer,
  CostScorer,
  LatencyScorer,
]);

/** The scorers that judge an answer on its own (an outcome's): no expected output, no run to look at. */
export const AnswerScorerSchema = z.discriminatedUnion("type", [
  ContainsScorer,
  RegexScorer,
  JsonValidScorer,
  NotEmptyScorer,
  LlmJudgeScorer,
]);

export const SCORER_TYPES = [
  "contains",
  "exact_match",
  "regex",
  "json_valid",
  "not_empty",
  "llm_judge",
  "trajectory",
  "call_count",
  "cost",
  "latency",
] as const;
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

export const TrajectoryMetricsSchema = z
  .object({
    precision: z.number().min(0).max(1).describe("Share of the calls made that were expected"),
    recall: z.number().min(0).max(1).describe("Share of the expected calls that were made"),
    f1: z.number().min(0).max(1),
  })
  .describe("`trajectory` scorer only");

export const ScoreSchema = z.object({
  type: z.enum(SCORER_TYPES),
  score: z.number().min(0).max(1),
  passed: z.boolean(),
  reason: z.string().nullable().describe("Why, where meaningful (a judge's reason, what was missing)"),
  trajectory: TrajectoryMetricsSchema.optional(),
});

export type Scorer = z.infer<typeof ScorerSchema>;
export type AnswerScorer = z.infer<typeof AnswerScorerSchema>;
export type Score = z.infer<typeof ScoreSchema>;
export type TrajectoryMetrics = z.infer<typeof TrajectoryMetricsSchema>;
