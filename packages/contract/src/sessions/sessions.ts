import { z } from "zod";
import { MemoryModeSchema } from "../agents/config.js";
import { ModelRefSchema } from "../agents/model.js";
import { IdOrName, idOf, MetadataSchema, NullableTimestamp, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { PageQuerySchema } from "../common/pagination.js";
import { GuardrailsSchema } from "../guardrails/guardrails.js";
import { UserEventBatchSchema } from "./events.js";
import { OutcomeInputSchema, SessionOutcomeSchema } from "./outcomes.js";

export const SessionStatusSchema = z
  .enum(["idle", "running"])
  .describe("`running` while the agent works on a turn, `idle` otherwise");

export const StopReasonSchema = z
  .enum(["end_turn", "requires_action", "interrupted", "max_turns", "error", "guardrail_blocked"])
  .describe(
    "Why the last turn ended: `end_turn`, `requires_action` (waits on `pendingActions`), `interrupted` " +
      "(`user.interrupt`), `max_turns` (model-call cap), `error`, `guardrail_blocked` (a guardrail with action " +
      "`block` stopped it: see the `session.guardrail` entry)",
  );

export const PendingActionSchema = z
  .object({
    toolUseId: z.string().describe("`id` of the tool-use event to answer"),
    kind: z
      .enum(["confirmation", "custom_tool"])
      .describe("`confirmation`: answer with `user.tool_confirmation`; `custom_tool`: with `user.custom_tool_result`"),
    name: z.string().describe("Tool name"),
  })
  .describe("A tool use the session waits on");

export const SessionResourceSchema = z.object({
  memoryStoreId: z.string(),
  memoryStoreName: z.string().describe("Name of the store when the session was created"),
  mode: MemoryModeSchema,
});

export const SessionUsageSchema = z
  .object({
    inputTokens: z.number().int().describe("Prompt tokens of all the session's model calls, cached ones included"),
    outputTokens: z.number().int().describe("Completion tokens, reasoning included"),
    cacheReadInputTokens: z.number().int().describe("Of `inputTokens`: read from the provider's prompt cache"),
    cacheWriteInputTokens: z.number().int().describe("Of `inputTokens`: written to the provider's prompt cache"),
    reasoningTokens: z.number().int().describe("Of `outputTokens`: reasoning (thinking) tokens"),
    costUsd: z
      .number()
      .nullable()
      .describe("Estimated cost in US dollars (to the micro-dollar); null when a call's price is unknown"),
  })
  .describe("Sums of the session's `agent.usage` entries and compaction calls");

export const SessionSchema = z
  .object({
    id: idOf("sess"),
    projectId: idOf("proj"),
    agent: z.object({ id: z.string(), version: z.number().int() }).describe("The agent version the session runs"),
    title: z.string().nullable().describe("Null: clients show their default label"),
    metadata: z.record(z.string(), z.string()),
    status: SessionStatusSchema,
    stopReason: StopReasonSchema.nullable().describe("Null until a turn has ended"),
    pendingActions: z.array(PendingActionSchema),
    environmentId: z.string().nullable().describe("Resolved at creation and never again"),
    vaultIds: z.array(z.string()).describe("Resolved at creation and never again"),
    resources: z.array(SessionResourceSchema).describe("Memory mounts, resolved at creation and never again"),
    parentSessionId: z.string().nullable().describe("The coordinator's session when this one is a delegation"),
    forkedFrom: z
      .object({ sessionId: z.string(), seq: z.number().int() })
      .nullable()
      .describe(
        "A fork's origin: the source session and the `seq` up to which its log was copied (same `seq`s and ids)",
      ),
    lastSeq: z.number().int().describe("`seq` of the newest log entry (0 when the log is empty)"),
    usage: SessionUsageSchema,
    outcome: SessionOutcomeSchema.nullable().describe("Null: the session has no outcome"),
    createdAt: Timestamp,
    updatedAt: Timestamp.describe("Last change of the log or the status"),
    archivedAt: NullableTimestamp.describe("Archived sessions refuse new events"),
  })
  .describe("Session");

export const SessionTitleSchema = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.sessionTitle)
  .describe("1 to 200 characters after trimming");

const AgentRefSchema = z
  .union([
    z.string().min(1).max(64).describe("Agent id: runs its current version"),
    z
      .object({ id: z.string().min(1).max(64), version: z.number().int().min(1) })
      .strict()
      .describe("Agent id and pinned version"),
  ])
  .describe("`agent_…` id (current version) or `{ id, version }`");

export const SessionResourceInputSchema = z
  .object({
    memoryStore: IdOrName.describe("Memory store id (`ms_…`) or name"),
    mode: MemoryModeSchema,
  })
  .strict();

export const CreateSessionSchema = z
  .object({
    agent: AgentRefSchema,
    title: SessionTitleSchema.nullable().optional(),
    metadata: MetadataSchema.optional(),
    environmentId: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .describe("Explicit environment; `null` = the project's default environment; absent = the agent's default"),
    vaultIds: z
      .array(IdOrName)
      .max(LIMITS.sessionVaults)
      .optional()
      .describe("Vault ids or names; `[]` = none; absent = the agent's default"),
    resources: z
      .array(SessionResourceInputSchema)
      .max(LIMITS.sessionResources)
      .optional()
      .describe("Memory mounts; `[]` = none; absent = the agent's default"),
    outcome: OutcomeInputSchema.optional().describe("Grade each turn's final answer (see docs/sessions.md, Outcomes)"),
    guardrails: GuardrailsSchema.optional().describe(
      "Replaces the agent version's guardrails for this session; `[]` = none; absent = the agent version's",
    ),
    events: UserEventBatchSchema.optional().describe(
      "Events appended to the new log in the same transaction (e.g. the first `user.message`)",
    ),
  })
  .strict();

export const ForkSessionSchema = z
  .object({
    atSeq: z.number().int().min(1).describe("Copy the source's log up to and including this `seq`"),
    agent: AgentRefSchema.optional().describe("Another agent version for the fork; absent: the source's version"),
    model: ModelRefSchema.optional().describe("Replaces the agent version's model in the fork"),
    title: SessionTitleSchema.nullable().optional().describe("Absent: the source's title"),
  })
  .strict();

export const UpdateSessionSchema = z
  .object({
    title: SessionTitleSchema.nullable().describe("New title; null removes it (default label)"),
  })
  .strict();

/**
 * `metadata[key]=value` (repeatable): sessions whose metadata contains every pair. `metadata` is an object schema (not a
 * refined record) so that OpenAPI documents it as a `deepObject` parameter; the number and length of keys are checked
 * by the service (`checkMetadataFilter`).
 */
export const SessionListQuery = PageQuerySchema.extend({
  agent: z.string().min(1).max(64).optional().describe("Only sessions of this agent id"),
  status: SessionStatusSchema.optional(),
  stopReason: StopReasonSchema.optional().describe(
    "Only sessions whose last turn ended so: `requires_action` (waiting for a tool confirmation or a custom tool " +
      "result), `error`, …",
  ),
  search: z
    .string()
    .trim()
    .min(1)
    .max(LIMITS.sessionTitle)
    .optional()
    .describe("Only sessions whose title contains this text (case-insensitive), or whose id it is"),
  archived: z
    .enum(["true", "false"])
    .optional()
    .describe("`false`: only active sessions; `true`: only archived ones; absent: both"),
  metadata: z
    .object({})
    .catchall(z.string().max(LIMITS.metadataValueLength))
    .optional()
    .describe(
      `\`metadata[key]=value\`, repeatable: only sessions whose metadata has every given pair (up to ${LIMITS.metadataEntries} pairs, keys up to ${LIMITS.metadataKeyLength} characters)`,
    ),
});

export type Session = z.infer<typeof SessionSchema>;
export type PendingAction = z.infer<typeof PendingActionSchema>;
export type StopReason = z.infer<typeof StopReasonSchema>;
export type SessionResource = z.infer<typeof SessionResourceSchema>;
export type CreateSessionInput = z.infer<typeof CreateSessionSchema>;
export type ForkSessionInput = z.infer<typeof ForkSessionSchema>;
export type SessionListQueryInput = z.infer<typeof SessionListQuery>;
