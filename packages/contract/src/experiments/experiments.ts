import { z } from "zod";
import { idOf, Name, Timestamp } from "../common/fields.js";
import { PageQuerySchema } from "../common/pagination.js";
import { SCORER_TYPES, ScorerListSchema, ScorerSchema, ScoreSchema, TrajectoryMetricsSchema } from "./scorers.js";
import { ExperimentTaskInputSchema, ExperimentTaskSchema } from "./task.js";

export const EXPERIMENT_STATUSES = ["pending", "running", "completed", "failed"] as const;
export const EXPERIMENT_CONCURRENCY_DEFAULT = 4;
export const EXPERIMENT_CONCURRENCY_MAX = 32;

export const CreateExperimentSchema = z
  .object({
    datasetId: z.string().min(1).max(64).describe("`ds_` id of a dataset of the project; its cases at creation run"),
    name: Name,
    task: ExperimentTaskInputSchema,
    scorers: ScorerListSchema,
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(EXPERIMENT_CONCURRENCY_MAX)
      .default(EXPERIMENT_CONCURRENCY_DEFAULT)
      .describe(`Cases of this experiment running at once (default ${EXPERIMENT_CONCURRENCY_DEFAULT})`),
  })
  .strict();

const Usage = z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() });

export const ScorerTotalsSchema = z.object({
  type: z.enum(SCORER_TYPES),
  meanScore: z.number().nullable().describe("Mean score over the completed cases; null when none completed"),
  passRate: z.number().nullable().describe("Share of completed cases this scorer passed"),
  trajectory: TrajectoryMetricsSchema.optional().describe("`trajectory` scorer: the means over the completed cases"),
});

export const ExperimentTotalsSchema = z
  .object({
    cases: z.number().int(),
    completed: z.number().int().describe("Cases that produced an output and were scored"),
    errored: z.number().int().describe("Cases with `status: error` (no output, or a scorer could not score)"),
    passRate: z
      .number()
      .nullable()
      .describe("Share of all cases that passed every scorer (an errored case does not pass)"),
    scorers: z.array(ScorerTotalsSchema),
    latencyMs: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }),
    usage: Usage.describe("Tokens of the task's model calls (judges excluded)"),
    judgeUsage: Usage.describe("Tokens of `llm_judge` calls"),
    estimatedCostUsd: z
      .number()
      .nullable()
      .describe("From the documented price table; null when a model's price is unknown"),
  })
  .describe("Aggregated metrics, computed when the last case ends");

export const ExperimentProgressSchema = z.object({
  done: z.number().int().describe("Cases finished (completed or errored)"),
  errored: z.number().int(),
  total: z.number().int(),
});

export const ExperimentSchema = z
  .object({
    id: idOf("exp"),
    projectId: idOf("proj"),
    datasetId: idOf("ds"),
    name: z.string(),
    task: ExperimentTaskSchema,
    scorers: z.array(ScorerSchema),
    concurrency: z.number().int(),
    status: z.enum(EXPERIMENT_STATUSES),
    caseCount: z.number().int().describe("Cases of the dataset at creation: what the experiment runs"),
    progress: ExperimentProgressSchema,
    totals: ExperimentTotalsSchema.nullable().describe("Null until the experiment completes"),
    error: z.string().nullable().describe("Why the experiment failed (`status: failed`)"),
    createdAt: Timestamp,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
  })
  .describe("Experiment: a dataset run through a model or an agent, scored");

export const ExperimentListQuery = PageQuerySchema.extend({
  datasetId: z.string().min(1).max(64).optional().describe("Only experiments over this dataset"),
});

export const ExperimentResultSchema = z
  .object({
    caseId: idOf("dscase"),
    position: z.number().int().describe("The case's position in the dataset"),
    status: z.enum(["completed", "error"]),
    input: z.string(),
    expected: z.string().nullable(),
    output: z.string().nullable().describe("The model's answer, or the agent's last assistant message"),
    scores: z.array(ScoreSchema),
    latencyMs: z.number().int().nullable(),
    usage: Usage,
    error: z.string().nullable().describe("What went wrong when `status` is `error`"),
    sessionId: idOf("sess").nullable().describe("The case's session (agent tasks)"),
    finishedAt: Timestamp,
  })
  .describe("Result of one case");

export type CreateExperiment = z.infer<typeof CreateExperimentSchema>;
export type Experiment = z.infer<typeof ExperimentSchema>;
export type ExperimentTotals = z.infer<typeof ExperimentTotalsSchema>;
export type ExperimentResult = z.infer<typeof ExperimentResultSchema>;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];
