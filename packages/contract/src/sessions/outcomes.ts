import { z } from "zod";
import { LIMITS } from "../common/limits.js";
import { type AnswerScorer, AnswerScorerSchema, ScoreSchema } from "../experiments/scorers.js";

export const OUTCOME_MAX_REVISIONS = 10;
export const OUTCOME_DEFAULT_REVISIONS = 2;

export interface OutcomeInput {
  scorers: AnswerScorer[];
  maxRevisions?: number | undefined;
}

/**
 * What a session's answers must meet: the scorers of experiments applied to the final answer of every turn, and how
 * often the agent may revise a failing answer. Only the scorers of an answer on its own are accepted. Typed
 * explicitly: the schema is used by sessions and experiment tasks, and its inferred type would make the contract's
 * declaration too long for the compiler.
 */
export const OutcomeInputSchema: z.ZodType<OutcomeInput, z.ZodTypeDef, OutcomeInput> = z
  .object({
    scorers: z
      .array(AnswerScorerSchema)
      .min(1)
      .max(LIMITS.experimentScorers)
      .superRefine((scorers, ctx) => {
        const seen = new Set<string>();
        scorers.forEach((scorer, index) => {
          if (seen.has(scorer.type)) {
            ctx.addIssue({ code: "custom", path: [index, "type"], message: "scorer types must be distinct" });
          }
          seen.add(scorer.type);
        });
      })
      .describe(
        "Scorers the final answer must all pass: `contains`, `regex`, `json_valid`, `not_empty`, `llm_judge` (with a " +
          "rubric). `exact_match` needs an expected output, and the run scorers (`trajectory`, `call_count`, `cost`, " +
          "`latency`) a case's run, which an outcome does not have",
      ),
    maxRevisions: z
      .number()
      .int()
      .min(0)
      .max(OUTCOME_MAX_REVISIONS)
      .optional()
      .describe(
        `Times a failing answer is sent back to the agent with the feedback; default ${OUTCOME_DEFAULT_REVISIONS}`,
      ),
  })
  .strict()
  .describe("An outcome: each turn's final answer is graded, and revised while it fails and revisions remain");

export interface Outcome {
  scorers: AnswerScorer[];
  maxRevisions: number;
}

/** An outcome as stored (an automation's): `maxRevisions` resolved. */
export const OutcomeSchema: z.ZodType<Outcome, z.ZodTypeDef, Outcome> = z
  .object({ scorers: z.array(AnswerScorerSchema), maxRevisions: z.number().int() })
  .describe("An outcome: the scorers each turn's final answer must pass, and the revisions allowed");

export const OutcomeStateSchema = z
  .enum(["pending", "passed", "failed"])
  .describe("`pending` until the turn's answer is graded (and while it is being revised), then `passed` or `failed`");

export const SessionOutcomeSchema = z
  .object({
    state: OutcomeStateSchema,
    revisions: z.number().int().describe("Revisions asked for in the latest graded turn"),
    maxRevisions: z.number().int(),
  })
  .describe("The outcome's state (the definition is the one the session was created with)");

/** The verdicts of one grading, as the `session.outcome_evaluation` log entry carries them. */
export const OutcomeEvaluationPayload = {
  verdict: z.enum(["passed", "failed"]).describe("`passed` when every scorer passed"),
  scores: z.array(ScoreSchema).describe("One verdict per scorer, in the outcome's order"),
  feedback: z.string().nullable().describe("What failed, as sent to the agent when it revises; null when passed"),
  revise: z.boolean().describe("The agent is given `feedback` as a new input and continues the turn"),
  revision: z.number().int().describe("0 for the turn's first answer, 1 for the first revision, …"),
  answerSeq: z.number().int().describe("`seq` of the `agent.message` graded"),
  usage: z
    .object({
      model: z.string().nullable().describe("`provider/model` of the judge; null when no scorer called one"),
      modelCalls: z.number().int(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
    })
    .describe("The grading's model calls (counted by budgets like every model call, in the same commit)"),
  costUsd: z.number().nullable().describe("Estimated cost of the judge calls; null when a price is unknown"),
};

export type OutcomeState = z.infer<typeof OutcomeStateSchema>;
export type SessionOutcome = z.infer<typeof SessionOutcomeSchema>;
