import { z } from "zod";
import { Description, idOf, MetadataSchema, Name, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import type { RouteDocMetadata } from "../openapi/operation-facts.js";
import {
  CaseConversationSchema,
  ConversationTurnSchema,
  ExpectedToolCallSchema,
  ExpectedToolsSchema,
} from "./dataset-case-fields.js";
import { boundedText, NameFilterQuery, PathId, ProjectItemParams, ProjectParams } from "./shared.js";

export const DatasetCaseInputSchema = z
  .object({
    input: boundedText(LIMITS.datasetCaseTextBytes, 1).describe("What the task receives (the user message)"),
    expected: boundedText(LIMITS.datasetCaseTextBytes).optional().describe("Reference output, for scorers"),
    conversation: CaseConversationSchema.optional(),
    expectedTools: ExpectedToolsSchema.optional(),
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
    conversation: z
      .array(ConversationTurnSchema)
      .nullable()
      .describe("The messages before `input` (multi-turn cases); null for a single-turn case"),
    expectedTools: z.array(ExpectedToolCallSchema).nullable().describe("Expected tool calls; null when not given"),
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

export const CaseFromSessionSchema = z
  .object({
    sessionId: z.string().min(1).max(64).describe("`sess_` id of a session of the project"),
    seq: z.number().int().min(1).describe("`seq` of the `user.message` that starts the turn"),
    includeConversation: z
      .boolean()
      .default(false)
      .describe("Make a multi-turn case: the session's messages before `seq` become the case's `conversation`"),
    expected: boundedText(LIMITS.datasetCaseTextBytes)
      .nullable()
      .optional()
      .describe("Replaces the agent's answer as `expected` (null: none); absent: the turn's last `agent.message`"),
    expectedTools: ExpectedToolsSchema.optional(),
    metadata: MetadataSchema.optional().describe("Added to `sourceSessionId` and `sourceSeq`"),
  })
  .strict();

export const UpdateDatasetCaseSchema = z
  .object({
    expected: boundedText(LIMITS.datasetCaseTextBytes)
      .nullable()
      .optional()
      .describe("New reference output; null: none"),
    expectedTools: ExpectedToolsSchema.nullable().optional().describe("New expected tool calls; null: none"),
  })
  .strict();

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
    appendCaseFromSession: {
      method: "POST",
      path: "/v1/projects/:projectId/datasets/:id/cases/from-session",
      pathParams: ProjectItemParams,
      body: CaseFromSessionSchema,
      responses: { 201: DatasetCaseSchema },
      summary: "Append a case made from a session's turn",
      description:
        "`input` is the text of the `user.message` at `seq`; `expected` the turn's final answer (its last " +
        "`agent.message` before the turn's `session.status_idle`; null when the turn has none) unless given; with " +
        "`includeConversation` the user and agent messages before `seq` become `conversation`. `metadata` links " +
        "back: `sourceSessionId`, `sourceSeq`. A session of another project is 404 `session.not_found`; a `seq` that " +
        "is not a `user.message` of the session is 400 `request.invalid`.",
      metadata: {
        errors: ["dataset.not_found", "dataset.too_many_cases", "session.not_found"],
      } satisfies RouteDocMetadata,
    },
    updateCase: {
      method: "PATCH",
      path: "/v1/projects/:projectId/datasets/:id/cases/:caseId",
      pathParams: z.object({ projectId: PathId, id: PathId, caseId: PathId }),
      body: UpdateDatasetCaseSchema,
      responses: { 200: DatasetCaseSchema },
      summary: "Edit a case's expected output or expected tool calls",
      description:
        "Only `expected` and `expectedTools` (each left as is when absent, removed with null); `input`, " +
        "`conversation` and the position do not change. Experiments already created keep the copy they froze. An " +
        "unknown case, or one of another dataset or project, is 404 `dataset.case_not_found`.",
      metadata: { errors: ["dataset.not_found", "dataset.case_not_found"] } satisfies RouteDocMetadata,
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
export type UpdateDatasetCase = z.infer<typeof UpdateDatasetCaseSchema>;
export type CaseFromSession = z.infer<typeof CaseFromSessionSchema>;
