import { z } from "zod";
import { idOf } from "../common/fields.js";
import { SCORER_TYPES } from "./scorers.js";

export const ExperimentCompareQuery = z.object({
  baseline: z.string().min(1).max(64).describe("`exp_` id of the experiment to compare with (same dataset)"),
});

const Delta = z.object({
  experiment: z.number().nullable(),
  baseline: z.number().nullable(),
  delta: z.number().nullable(),
});
const CaseRef = z.object({ caseId: idOf("dscase"), position: z.number().int() });

export const CASE_CHANGES = ["regression", "improvement", "unchanged"] as const;
const CaseChangeSchema = z
  .enum(CASE_CHANGES)
  .describe(
    "`regression`: a scorer went from pass to fail, or the case from completed to `error`; `improvement`: no " +
      "regression and a scorer went from fail to pass, or the case from `error` to completed; `unchanged`: no verdict " +
      "changed (scores may have moved)",
  );

const VerdictSchema = z
  .object({ passed: z.boolean(), score: z.number() })
  .nullable()
  .describe("The scorer's verdict on this side; null when the case errored there (no score)");

const CaseSideSchema = z
  .object({
    status: z.enum(["completed", "error"]),
    output: z.string().nullable(),
    error: z.string().nullable(),
    latencyMs: z.number().int().nullable(),
    sessionId: idOf("sess").nullable().describe("The case's session (agent tasks)"),
  })
  .describe("The case as one of the two experiments ran it");

export const CaseComparisonSchema = z
  .object({
    caseId: idOf("dscase"),
    position: z.number().int(),
    change: CaseChangeSchema,
    input: z.string(),
    expected: z.string().nullable(),
    experiment: CaseSideSchema,
    baseline: CaseSideSchema,
    scorers: z
      .array(
        z.object({
          type: z.enum(SCORER_TYPES),
          experiment: VerdictSchema,
          baseline: VerdictSchema,
          delta: z.number().nullable().describe("Score here minus score in the baseline; null when a side has none"),
          change: CaseChangeSchema,
        }),
      )
      .describe("Per scorer type both experiments use"),
  })
  .describe("A case whose verdict changed between the baseline and the experiment, with both outputs");

export const ExperimentComparisonSchema = z
  .object({
    experimentId: idOf("exp"),
    baselineId: idOf("exp"),
    datasetId: idOf("ds"),
    passRate: Delta.describe("Share of the cases both ran that passed every shared scorer"),
    scorers: z.array(
      z.object({
        type: z.enum(SCORER_TYPES),
        meanScore: Delta,
        passRate: Delta,
        regressions: z.number().int().describe("Cases this scorer passed in the baseline and fails here"),
        improvements: z.number().int().describe("Cases this scorer failed in the baseline and passes here"),
      }),
    ),
    regressions: z
      .array(CaseRef)
      .describe("Cases with a regression on any scorer (or that errored here only), by position"),
    improvements: z
      .array(CaseRef)
      .describe("Cases with an improvement on some scorer and no regression (or that errored in the baseline only)"),
    cases: z
      .array(CaseComparisonSchema)
      .describe(
        "The regressions then the improvements, each with its per-scorer verdicts and both outputs: regressions with " +
          "the most scorers regressed first, then by position",
      ),
  })
  .describe(
    "Differences with a baseline over the cases both experiments ran (matched by dataset case; `delta` = experiment " +
      "− baseline), over the scorer types both use",
  );

export type ExperimentComparison = z.infer<typeof ExperimentComparisonSchema>;
export type CaseComparison = z.infer<typeof CaseComparisonSchema>;
export type CaseChange = (typeof CASE_CHANGES)[number];
