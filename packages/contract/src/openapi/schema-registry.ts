import { ZodType, type ZodTypeAny } from "zod";
import { CreateAgentSchema, UpdateAgentSchema } from "../agents/config.js";
import {
  AgentSchema,
  DuplicateAgentSchema,
  McpHeadersRotationSchema,
  RestoreAgentSchema,
  RotateMcpHeadersSchema,
} from "../agents/records.js";
import { ArtifactListSchema, ArtifactSchema } from "../artifacts/artifacts.js";
import { AutomationSchema, CreateAutomationSchema, UpdateAutomationSchema } from "../automations/automations.js";
import { ParsedScheduleSchema, ParseScheduleSchema } from "../automations/parse-schedule.js";
import { RunAcceptedSchema } from "../automations/routes.js";
import { AutomationRunSchema } from "../automations/runs.js";
import {
  ManualTriggerSchema,
  ScheduleTriggerInputSchema,
  ScheduleTriggerSchema,
  TriggerInputSchema,
  TriggerSchema,
} from "../automations/trigger.js";
import { ErrorEnvelopeSchema } from "../common/errors.js";
import { MetadataSchema } from "../common/fields.js";
import { CaseComparisonSchema, ExperimentComparisonSchema } from "../experiments/comparison.js";
import { CreateExperimentSchema, ExperimentResultSchema, ExperimentSchema } from "../experiments/experiments.js";
import { ScorerSchema } from "../experiments/scorers.js";
import {
  AgentTaskInputSchema,
  AgentTaskSchema,
  ExperimentTaskInputSchema,
  ExperimentTaskSchema,
  ModelTaskSchema,
} from "../experiments/task.js";
import { PutEgressPolicySchema, WorkspaceEgressPolicySchema } from "../governance/egress-policy.js";
import { GuardrailCheckSchema, GuardrailSchema } from "../guardrails/guardrails.js";
import { ApiKeySchema, CreateApiKeySchema, CreatedApiKeySchema } from "../platform/api-keys.js";
import {
  BuiltinToolListSchema,
  BuiltinToolSchema,
  CatalogueEmbeddingModelListSchema,
  CatalogueEmbeddingModelSchema,
  CatalogueModelListSchema,
  CatalogueModelSchema,
} from "../platform/catalogue.js";
import { PlatformContextSchema } from "../platform/context.js";
import { HealthSchema, ReadinessSchema } from "../platform/health.js";
import { CreateProjectSchema, ProjectSchema } from "../platform/projects.js";
import { BudgetSchema, CreateBudgetSchema } from "../resources/budgets.js";
import {
  AppendDatasetCasesSchema,
  AppendedDatasetCasesSchema,
  CreateDatasetSchema,
  DatasetCaseSchema,
  DatasetSchema,
} from "../resources/datasets.js";
import { CreateEnvironmentSchema, EnvironmentSchema, UpdateEnvironmentSchema } from "../resources/environments.js";
import { NetworkingSchema } from "../resources/execution-config.js";
import {
  CreateKnowledgeBaseSchema,
  CreateKnowledgeDocumentSchema,
  KnowledgeBaseSchema,
  KnowledgeDocumentSchema,
  KnowledgeDocumentSummarySchema,
  KnowledgeSearchResultSchema,
  KnowledgeSearchSchema,
} from "../resources/knowledge-bases.js";
import {
  CreateMemoryStoreSchema,
  MemoryEntrySchema,
  MemoryStoreSchema,
  PutMemoryEntrySchema,
} from "../resources/memory-stores.js";
import {
  CreateServerlessToolSchema,
  PublishServerlessToolSchema,
  ServerlessToolSchema,
  ServerlessToolVersionSchema,
} from "../resources/serverless-tools.js";
import { CreateVaultSchema, UpdateVaultSecretsSchema, VaultSchema } from "../resources/vaults.js";
import { SessionDeltaSchema, SessionDeltaWithdrawnSchema } from "../sessions/deltas.js";
import {
  IngestEventsSchema,
  SessionEventSchema,
  UserCustomToolResultEventSchema,
  UserEventSchema,
  UserInterruptEventSchema,
  UserMessageEventSchema,
  UserToolConfirmationEventSchema,
} from "../sessions/events.js";
import {
  UploadedWorkspaceFileSchema,
  UploadWorkspaceFileSchema,
  WorkspaceFileListSchema,
  WorkspaceFileSchema,
} from "../sessions/files.js";
import {
  SessionEventPageSchema,
  SessionLogEntrySchema,
  SessionLogEventSchema,
  SessionLogEventSchemas,
} from "../sessions/log-events.js";
import { IngestAcknowledgementSchema } from "../sessions/routes.js";
import { CreateSessionSchema, SessionSchema, UpdateSessionSchema } from "../sessions/sessions.js";
import { ProjectUsageSchema, UsageRowSchema } from "../sessions/usage.js";
import {
  CreateSkillSchema,
  PublishSkillSchema,
  SkillContentSchema,
  SkillFileUrlSchema,
  SkillSchema,
  SkillSummarySchema,
  SkillVersionSummarySchema,
} from "../skills/schemas.js";
import {
  CreateWebhookSchema,
  RotatedWebhookSecretSchema,
  UpdateWebhookSchema,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "../webhooks/webhooks.js";

export interface RegisteredSchema {
  schema: ZodTypeAny;
  /** `input` for request bodies (converted as ts-rest converts bodies); `output` (default) for records. */
  io?: "input" | "output";
}

const request = (schema: ZodTypeAny): RegisteredSchema => ({ schema, io: "input" });

/**
 * Named models of `components.schemas`: every subschema of the document deep-equal to one of these becomes a `$ref`.
 * Adding a model is one line. Members of a discriminated union not registered here are named `<Value><Union>`.
 */
export const COMPONENT_SCHEMAS: Record<string, ZodTypeAny | RegisteredSchema> = {
  ErrorEnvelope: ErrorEnvelopeSchema,
  Metadata: MetadataSchema,
  // platform
  PlatformContext: PlatformContextSchema,
  CatalogueModel: CatalogueModelSchema,
  CatalogueModelList: CatalogueModelListSchema,
  CatalogueEmbeddingModel: CatalogueEmbeddingModelSchema,
  CatalogueEmbeddingModelList: CatalogueEmbeddingModelListSchema,
  BuiltinTool: BuiltinToolSchema,
  BuiltinToolList: BuiltinToolListSchema,
  ProjectUsage: ProjectUsageSchema,
  UsageRow: UsageRowSchema,
  Health: HealthSchema,
  Readiness: ReadinessSchema,
  Project: ProjectSchema,
  CreateProjectRequest: request(CreateProjectSchema),
  ApiKey: ApiKeySchema,
  CreatedApiKey: CreatedApiKeySchema,
  CreateApiKeyRequest: request(CreateApiKeySchema),
  WorkspaceEgressPolicy: WorkspaceEgressPolicySchema,
  PutEgressPolicyRequest: request(PutEgressPolicySchema),
  // agents
  Agent: AgentSchema,
  CreateAgentRequest: request(CreateAgentSchema),
  UpdateAgentRequest: request(UpdateAgentSchema),
  DuplicateAgentRequest: request(DuplicateAgentSchema),
  RestoreAgentRequest: request(RestoreAgentSchema),
  RotateMcpHeadersRequest: request(RotateMcpHeadersSchema),
  McpHeadersRotation: McpHeadersRotationSchema,
  // guardrails (agents and sessions)
  Guardrail: GuardrailSchema,
  GuardrailCheck: GuardrailCheckSchema,
  // sessions
  Session: SessionSchema,
  CreateSessionRequest: request(CreateSessionSchema),
  UpdateSessionRequest: request(UpdateSessionSchema),
  SessionEvent: SessionEventSchema,
  SessionEventPage: SessionEventPageSchema,
  // The log's typed entries (`UserMessageEvent`, `AgentMessageEvent`, …), their union, and a page's entry (a known
  // type, or one a newer server added).
  ...SessionLogEventSchemas,
  SessionLogEvent: SessionLogEventSchema,
  SessionLogEntry: SessionLogEntrySchema,
  // Ephemeral SSE events of `?deltas=true` (not log entries).
  SessionDelta: SessionDeltaSchema,
  SessionDeltaWithdrawn: SessionDeltaWithdrawnSchema,
  // What clients send.
  UserEvent: request(UserEventSchema),
  UserMessageInput: request(UserMessageEventSchema),
  UserInterruptInput: request(UserInterruptEventSchema),
  UserToolConfirmationInput: request(UserToolConfirmationEventSchema),
  UserCustomToolResultInput: request(UserCustomToolResultEventSchema),
  IngestEventsRequest: request(IngestEventsSchema),
  IngestAcknowledgement: IngestAcknowledgementSchema,
  Artifact: ArtifactSchema,
  ArtifactList: ArtifactListSchema,
  WorkspaceFile: WorkspaceFileSchema,
  WorkspaceFileList: WorkspaceFileListSchema,
  UploadWorkspaceFileRequest: request(UploadWorkspaceFileSchema),
  UploadedWorkspaceFile: UploadedWorkspaceFileSchema,
  // automations
  Automation: AutomationSchema,
  CreateAutomationRequest: request(CreateAutomationSchema),
  UpdateAutomationRequest: request(UpdateAutomationSchema),
  AutomationTrigger: TriggerSchema,
  ScheduleTrigger: ScheduleTriggerSchema,
  AutomationTriggerInput: request(TriggerInputSchema),
  ScheduleTriggerInput: request(ScheduleTriggerInputSchema),
  ManualTriggerInput: request(ManualTriggerSchema),
  AutomationRun: AutomationRunSchema,
  RunAccepted: RunAcceptedSchema,
  ParseScheduleRequest: request(ParseScheduleSchema),
  ParsedSchedule: ParsedScheduleSchema,
  // experiments
  Experiment: ExperimentSchema,
  CreateExperimentRequest: request(CreateExperimentSchema),
  ExperimentTask: ExperimentTaskSchema,
  ExperimentTaskInput: request(ExperimentTaskInputSchema),
  ModelTask: ModelTaskSchema,
  AgentTask: AgentTaskSchema,
  AgentTaskInput: request(AgentTaskInputSchema),
  Scorer: ScorerSchema,
  ExperimentResult: ExperimentResultSchema,
  ExperimentComparison: ExperimentComparisonSchema,
  CaseComparison: CaseComparisonSchema,
  // skills
  Skill: SkillSchema,
  SkillSummary: SkillSummarySchema,
  SkillVersion: SkillVersionSummarySchema,
  SkillContent: SkillContentSchema,
  SkillFileUrl: SkillFileUrlSchema,
  CreateSkillRequest: request(CreateSkillSchema),
  PublishSkillRequest: request(PublishSkillSchema),
  // supporting resources
  Dataset: DatasetSchema,
  DatasetCase: DatasetCaseSchema,
  CreateDatasetRequest: request(CreateDatasetSchema),
  AppendDatasetCasesRequest: request(AppendDatasetCasesSchema),
  AppendedDatasetCases: AppendedDatasetCasesSchema,
  Environment: EnvironmentSchema,
  CreateEnvironmentRequest: request(CreateEnvironmentSchema),
  UpdateEnvironmentRequest: request(UpdateEnvironmentSchema),
  Networking: request(NetworkingSchema),
  Vault: VaultSchema,
  CreateVaultRequest: request(CreateVaultSchema),
  UpdateVaultSecretsRequest: request(UpdateVaultSecretsSchema),
  MemoryStore: MemoryStoreSchema,
  CreateMemoryStoreRequest: request(CreateMemoryStoreSchema),
  MemoryEntry: MemoryEntrySchema,
  PutMemoryEntryRequest: request(PutMemoryEntrySchema),
  KnowledgeBase: KnowledgeBaseSchema,
  CreateKnowledgeBaseRequest: request(CreateKnowledgeBaseSchema),
  KnowledgeDocument: KnowledgeDocumentSchema,
  KnowledgeDocumentSummary: KnowledgeDocumentSummarySchema,
  CreateKnowledgeDocumentRequest: request(CreateKnowledgeDocumentSchema),
  KnowledgeSearchRequest: request(KnowledgeSearchSchema),
  KnowledgeSearchResult: KnowledgeSearchResultSchema,
  ServerlessTool: ServerlessToolSchema,
  ServerlessToolVersion: ServerlessToolVersionSchema,
  CreateServerlessToolRequest: request(CreateServerlessToolSchema),
  PublishServerlessToolRequest: request(PublishServerlessToolSchema),
  Budget: BudgetSchema,
  CreateBudgetRequest: request(CreateBudgetSchema),
  Webhook: WebhookSchema,
  WebhookWithSecret: WebhookWithSecretSchema,
  RotatedWebhookSecret: RotatedWebhookSecretSchema,
  CreateWebhookRequest: request(CreateWebhookSchema),
  UpdateWebhookRequest: request(UpdateWebhookSchema),
  WebhookDelivery: WebhookDeliverySchema,
};

export function registered(entry: ZodTypeAny | RegisteredSchema): Required<RegisteredSchema> {
  return entry instanceof ZodType ? { schema: entry, io: "output" } : { io: "output", ...entry };
}
