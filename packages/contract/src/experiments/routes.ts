import { z } from "zod";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import type { RouteDocMetadata } from "../openapi/operation-facts.js";
import { ExperimentCompareQuery, ExperimentComparisonSchema } from "./comparison.js";
import {
  CreateExperimentSchema,
  ExperimentListQuery,
  ExperimentResultSchema,
  ExperimentSchema,
} from "./experiments.js";

const PathId = z.string().min(1).max(128);
const ProjectParams = z.object({ projectId: PathId });
const ExperimentParams = z.object({ projectId: PathId, id: PathId });

const base = "/v1/projects/:projectId/experiments";

export const experimentsContract = c.router(
  {
    create: {
      method: "POST",
      path: base,
      pathParams: ProjectParams,
      body: CreateExperimentSchema,
      responses: { 201: ExperimentSchema },
      summary: "Create an experiment",
      description:
        "Freezes the dataset's cases and, for an agent task, the agent version; answers at once with `status: " +
        "pending` and runs asynchronously (pending → running → completed or failed). Refused at once when the agent " +
        "is missing (404), archived (409 `agent.archived`) or the version missing (404 `agent.version_not_found`), " +
        "the dataset is empty (400 `experiment.empty_dataset`), an agent task has more than 200 cases (400 " +
        "`experiment.too_many_cases`), or a blocking budget is exhausted (403 `budget.exceeded`).",
      metadata: {
        errors: [
          "dataset.not_found",
          "agent.not_found",
          "agent.version_not_found",
          "agent.archived",
          "experiment.empty_dataset",
          "experiment.too_many_cases",
          "experiment.invalid_model",
          "budget.exceeded",
        ],
      } satisfies RouteDocMetadata,
    },
    list: {
      method: "GET",
      path: base,
      pathParams: ProjectParams,
      query: ExperimentListQuery,
      responses: { 200: cursorPage(ExperimentSchema) },
      summary: "List experiments, newest first",
      description: "`datasetId` keeps only the experiments over that dataset.",
    },
    get: {
      method: "GET",
      path: `${base}/:id`,
      pathParams: ExperimentParams,
      responses: { 200: ExperimentSchema },
      summary: "Get an experiment: status, progress and, once completed, its totals",
      description:
        "`status` goes `pending` → `running` → `completed` or `failed`; `totals` stays null until the end. A failing case does not fail the experiment: it is a result with `status: error`.",
    },
    results: {
      method: "GET",
      path: `${base}/:id/results`,
      pathParams: ExperimentParams,
      query: PageQuerySchema,
      responses: { 200: cursorPage(ExperimentResultSchema) },
      summary: "List per-case results in dataset order",
      description: "Finished cases only: while the experiment runs, the list grows as cases finish.",
    },
    compare: {
      method: "GET",
      path: `${base}/:id/compare`,
      pathParams: ExperimentParams,
      query: ExperimentCompareQuery,
      responses: { 200: ExperimentComparisonSchema },
      summary: "Compare an experiment with a baseline over the same dataset",
      description:
        "Over the cases both ran and the scorer types both use: per scorer the difference of mean score and pass " +
        "rate and how many cases it regressed or improved; the cases whose verdict changed on any scorer (a pass → " +
        "fail on one scorer is a regression even if the others pass), regressions first, each with every scorer's " +
        "verdict on both sides and both outputs. A baseline over another dataset is 422 `experiment.not_comparable`.",
      metadata: { errors: ["experiment.not_comparable"] } satisfies RouteDocMetadata,
    },
  },
  routerOptions,
);
