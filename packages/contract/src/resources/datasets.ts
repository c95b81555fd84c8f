import { z } from "zod";
import { Description, idOf, MetadataSchema, Name, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import { boundedText, NameFilterQuery, ProjectItemParams, ProjectParams } from "./shared.js";

export const DatasetCaseInputSchema = z
  .object({
    input: boundedText(LIMITS.datasetCaseTextBytes, 1).describe("What the task receives (the user message)"),
    expected: boundedText(LIMITS.datasetCaseTextBytes).optional().describe("Reference output, for scorers"),
    metadata: MetadataSchema.optional(),
  })
  .strict();

const CaseList = z.array(DatasetCaseInputSchema).max(LIMITS.datasetCasesPerRequest);

export const DatasetSchema = z
  .object({
    id: idOf("ds"),
    projectId: idOf("proj"),
    name: z.string(),
    description: z.string().nullable(),
    caseCount: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("Dataset: ordered cases that experiments run");

export const DatasetCaseSchema = z
  .object({
    id: idOf("dscase"),
    datasetId: idOf("ds"),
    position: z.number().int().describe("1-based order in the dataset; appends continue the numbering"),
    input: z.string(),
    expected: z.string().nullable(),
    metadata: z.record(z.string()),
    createdAt: Timestamp,
  })
  .describe("Dataset case");

export const CreateDatasetSchema = z
  .object({
    name: Name,
    description: Description.optional(),
    cases: CaseList.optional().describe(`Initial cases, at most ${LIMITS.datasetCasesPerRequest}`),
  })
  .strict();

export const AppendDatasetCasesSchema = z
  .object({ cases: CaseList.min(1).describe(`1 to ${LIMITS.datasetCasesPerRequest} cases to append`) })
  .strict();

export const AppendedDatasetCasesSchema = z.object({
  dataset: DatasetSchema,
  cases: z.array(z.object({ id: idOf("dscase"), position: z.number().int() })).describe("The new cases, in order"),
});

export const datasetsContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/projects/:projectId/datasets",
      pathParams: ProjectParams,
      body: CreateDatasetSchema,
      responses: { 201: DatasetSchema },
      summary: "Create a dataset, optionally with its first cases",
    },
    list: {
      method: "GET",
      path: "/v1/projects/:projectId/datasets",
      pathParams: ProjectParams,
      query: NameFilterQuery,
      responses: { 200: cursorPage(DatasetSchema) },
      summary: "List datasets, newest first",
    },
    get: {
      method: "GET",
      path: "/v1/projects/:projectId/datasets/:id",
      pathParams: ProjectItemParams,
      responses: { 200: DatasetSchema },
      summary: "Get a dataset",
    },
    appendCases: {
      method: "POST",
      path: "/v1/projects/:projectId/datasets/:id/cases",
      pathParams: ProjectItemParams,
      body: AppendDatasetCasesSchema,
      responses: { 201: AppendedDatasetCasesSchema },
      summary: "Append cases after the existing ones",
    },
    listCases: {
      method: "GET",
      path: "/v1/projects/:projectId/datasets/:id/cases",
      pathParams: ProjectItemParams,
      query: PageQuerySchema,
      responses: { 200: cursorPage(DatasetCaseSchema) },
      summary: "List cases in dataset order (by position)",
    },
  },
  routerOptions,
);

export type Dataset = z.infer<typeof DatasetSchema>;
export type DatasetCase = z.infer<typeof DatasetCaseSchema>;
export type DatasetCaseInput = z.infer<typeof DatasetCaseInputSchema>;
