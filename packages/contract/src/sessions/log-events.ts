import { z } from "zod";
import { Timestamp } from "../common/fields.js";
import { GuardrailActionSchema, GuardrailSpanSchema, GuardrailStageSchema } from "../guardrails/guardrails.js";
import { SessionEventSchema } from "./events.js";
import { OutcomeEvaluationPayload } from "./outcomes.js";
import { PendingActionSchema, StopReasonSchema } from "./sessions.js";

/**
 * The entries the server writes to a session log, one schema per `type` (apps/server: `sessions/user-events.ts` stores
 * user events without their `idempotencyKey`; `runtime/loop/events.ts` and `toolset.ts` build the platform's). Each is
 * `{ seq, id, type, createdAt }` plus the type's payload. The server may add types and fields: read the log with
 * `SessionLogEntrySchema`, which also accepts entries these schemas do not know.
 */

const TextContentSchema = z
  .array(z.object({ type: z.literal("text"), text: z.string().describe("The text") }).describe("A text part"))
  .describe("Text parts");

function logEvent<T extends string, S extends z.ZodRawShape>(type: T, payload: S, description: string) {
  return z
    .object({
      seq: z.number().int().min(1).describe("Position in the log: 1, 2, 3… without gaps"),
      id: z.string().describe("`evt_` id; a tool use is answered by the id of its event"),
      type: z.literal(type).describe("Entry type"),
      createdAt: Timestamp.describe("When the entry was appended"),
      ...payload,
    })
    .describe(description);
}

const toolInput = z.unknown().describe("The arguments the model passed, as JSON (normally an object)");
const requiresConfirmation = z
  .literal(true)
  .optional()
  .describe("Present when the tool's policy is `always_ask`: the turn waits for a `user.tool_confirmation`");
const toolResultPayload = {
  toolUseId: z.string().describe("`id` of the tool-use entry this answers"),
  content: TextContentSchema.describe("The tool's output (or the failure, with `isError`)"),
  isError: z.boolean().describe("The tool failed, was denied, interrupted or not run"),
};

export const UserMessageLogEventSchema = logEvent(
  "user.message",
  { content: TextContentSchema.describe("The message") },
  "A user message (as sent, without its idempotencyKey); delegated sessions start with one carrying the task",
);

export const UserInterruptLogEventSchema = logEvent(
  "user.interrupt",
  {},
  "A request to stop the running turn (sent by a client, or by a coordinator cancelling a delegation)",
);

export const UserToolConfirmationLogEventSchema = logEvent(
  "user.tool_confirmation",
  {
    toolUseId: z.string().describe("`id` of the confirmed tool-use entry"),
    result: z.enum(["allow", "deny"]).describe("The decision"),
    denyMessage: z.string().optional().describe("With `deny`: the reason the model is told"),
  },
  "An answer to a tool use that waited for confirmation",
);

export const UserCustomToolResultLogEventSchema = logEvent(
  "user.custom_tool_result",
  {
    customToolUseId: z.string().describe("`id` of the answered `agent.custom_tool_use` entry"),
    content: TextContentSchema.describe("The result"),
    isError: z.boolean().optional().describe("The tool failed; `content` describes the failure"),
  },
  "The result of a custom tool run by the client",
);

export const SessionStatusRunningLogEventSchema = logEvent(
  "session.status_running",
  {},
  "A turn started: the agent works on the log",
);

export const SessionStatusIdleLogEventSchema = logEvent(
  "session.status_idle",
  {
    stopReason: StopReasonSchema.describe("Why the turn ended"),
    pendingActions: z
      .array(PendingActionSchema)
      .optional()
      .describe("Only with `requires_action`: the tool uses waiting for an answer"),
  },
  "A turn ended; the session waits for events",
);

export const SessionErrorLogEventSchema = logEvent(
  "session.error",
  {
    error: z
      .object({
        code: z
          .string()
          .describe("e.g. `session.operator_required`, `session.loop_failed`, a model or budget failure code"),
        message: z.string().describe("Readable diagnostic"),
      })
      .describe("What failed"),
    inputSeq: z
      .number()
      .int()
      .optional()
      .describe(
        "With `model.input_too_large`: `seq` of the input too large for the model's window; later turns are sent a note in its place",
      ),
  },
  "The turn failed; a `session.status_idle` with stop reason `error` follows",
);

export const SessionMcpServerUnavailableLogEventSchema = logEvent(
  "session.mcp_server_unavailable",
  {
    serverName: z.string().describe("The agent's name for the MCP server"),
    message: z.string().describe("Why its tools could not be listed"),
  },
  "An MCP server's tools could not be listed; the turn goes on without them",
);

export const AgentMessageLogEventSchema = logEvent(
  "agent.message",
  {
    content: TextContentSchema.describe("The model's text"),
    cutShort: z
      .literal(true)
      .optional()
      .describe(
        "Present when a `user.interrupt` stopped the reply as it streamed: `content` is what was written by then",
      ),
  },
  "Text the model wrote",
);

export const AgentToolUseLogEventSchema = logEvent(
  "agent.tool_use",
  {
    name: z.string().describe("Tool name (built-in, serverless, skill or `delegate_to_<role>` tools)"),
    input: toolInput,
    requiresConfirmation,
  },
  "The model calls a tool the platform runs; an `agent.tool_result` answers it",
);

export const AgentMcpToolUseLogEventSchema = logEvent(
  "agent.mcp_tool_use",
  {
    serverName: z.string().describe("The agent's name for the MCP server"),
    name: z.string().describe("The tool's name on that server"),
    input: toolInput,
    requiresConfirmation,
  },
  "The model calls a tool of an MCP server; an `agent.mcp_tool_result` answers it",
);

export const AgentCustomToolUseLogEventSchema = logEvent(
  "agent.custom_tool_use",
  { name: z.string().describe("Custom tool name"), input: toolInput },
  "The model calls a custom tool: the turn waits for a `user.custom_tool_result` from the client",
);

export const AgentToolResultLogEventSchema = logEvent(
  "agent.tool_result",
  toolResultPayload,
  "The result of an `agent.tool_use`",
);

const storedMedia = {
  mimeType: z.string().describe("IANA media type the server gave"),
  artifactId: z
    .string()
    .describe("The session artifact holding the bytes (`GET …/sessions/:id/artifacts` gives a signed link)"),
  bytes: z.number().int().describe("Size of the content"),
};

/**
 * The parts of an MCP tool result. Text as everywhere; binary content (images, audio, binary resources) is stored as an
 * artifact of the session and referenced here, never pasted. More part types may be added: skip the ones you do not
 * know.
 */
export const McpToolResultContentSchema = z
  .array(
    z.union([
      z.object({ type: z.literal("text"), text: z.string().describe("The text") }).describe("A text part"),
      z
        .object({ type: z.literal("image"), ...storedMedia })
        .describe("An image; models that accept images in tool results see it"),
      z.object({ type: z.literal("audio"), ...storedMedia }).describe("Audio; models are told it exists"),
      z
        .object({ type: z.literal("resource"), uri: z.string().describe("The resource's URI"), ...storedMedia })
        .describe("A binary resource the result embedded or linked"),
    ]),
  )
  .describe("The tool's output in order (or the failure, with `isError`)");

export const AgentMcpToolResultLogEventSchema = logEvent(
  "agent.mcp_tool_result",
  { ...toolResultPayload, content: McpToolResultContentSchema },
  "The result of an `agent.mcp_tool_use`",
);

export const AgentThinkingLogEventSchema = logEvent(
  "agent.thinking",
  {
    text: z.string().describe("The model's thinking as the provider returned it (empty when the provider redacted it)"),
    providerMetadata: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .describe(
        "What the provider needs to have the thinking back, unchanged (Anthropic: `signature` or `redactedData`; " +
          "OpenAI: the reasoning item's id and encrypted content)",
      ),
  },
  "Thinking (reasoning) of a model response, before its message and tool uses; sent back to the model as it came",
);

/** Cached and reasoning tokens and cost of a model call (absent on entries written before they were recorded). */
const callAccounting = {
  cacheReadInputTokens: z
    .number()
    .int()
    .optional()
    .describe("Of `inputTokens`: read from the provider's prompt cache, as the provider reports them"),
  cacheWriteInputTokens: z
    .number()
    .int()
    .optional()
    .describe("Of `inputTokens`: written to the provider's prompt cache (Anthropic bills them above the input price)"),
  reasoningTokens: z
    .number()
    .int()
    .optional()
    .describe("Of `outputTokens`: reasoning (thinking) tokens, as the provider reports them"),
  costUsd: z
    .number()
    .nullable()
    .optional()
    .describe(
      "Estimated cost in US dollars from the model catalogue's prices (to the micro-dollar); null when unknown",
    ),
};

export const AgentUsageLogEventSchema = logEvent(
  "agent.usage",
  {
    model: z.string().describe("`provider/model` that answered"),
    inputTokens: z.number().int().describe("Prompt tokens of the call, cached ones included"),
    outputTokens: z.number().int().describe("Completion tokens of the call, reasoning included"),
    ...callAccounting,
    contextSeq: z.number().int().describe("`seq` of the last entry the call had in its context"),
    estimated: z
      .literal(true)
      .optional()
      .describe(
        "Present when the call was stopped by a `user.interrupt` before the provider reported all of its usage: what " +
          "it reported is kept (Anthropic reports the prompt's tokens as its stream starts), the rest is estimated " +
          "(about 4 characters a token) from the prompt sent and the text written",
      ),
  },
  "Token usage of one model call",
);

export const SessionCompactionLogEventSchema = logEvent(
  "session.compaction",
  {
    summary: z.string().describe("The summary that stands for the earlier conversation in what the model is sent"),
    fromSeq: z.number().int().describe("`seq` of the first entry the summary stands for"),
    toSeq: z
      .number()
      .int()
      .describe(
        "User messages up to this `seq` and model responses begun up to it (with their tool results) are summarised",
      ),
    tokensBefore: z.number().int().describe("Estimated prompt tokens before the compaction"),
    tokensAfter: z.number().int().describe("Estimated prompt tokens after it"),
    reason: z
      .enum(["threshold", "context_overflow"])
      .describe(
        "`threshold`: the prompt passed the configured share of the window; `context_overflow`: the provider refused it",
      ),
    usage: z
      .object({
        model: z.string().describe("`provider/model` that wrote the summary"),
        inputTokens: z.number().int(),
        outputTokens: z.number().int(),
        ...callAccounting,
      })
      .describe("Token usage of the summarising call (counted by budgets like every model call)"),
  },
  "The earlier conversation was summarised: the model is sent the summary and the entries after it (the log keeps all)",
);

export const SessionOutcomeEvaluationLogEventSchema = logEvent(
  "session.outcome_evaluation",
  OutcomeEvaluationPayload,
  "The turn's final answer was graded against the session's outcome; with `revise` the agent continues with the feedback",
);

export const SessionGuardrailLogEventSchema = logEvent(
  "session.guardrail",
  {
    guardrail: z.string().describe("The guardrail's name (its `name`, else `<stage>.<check type>`)"),
    stage: GuardrailStageSchema,
    check: z
      .enum(["pii", "secrets", "prompt_injection", "length", "language", "moderation", "llm_judge"])
      .describe("The check's type"),
    action: GuardrailActionSchema.describe("The guardrail's action (what was done when `triggered`)"),
    triggered: z
      .boolean()
      .describe(
        "The check found something and the action was taken; `false` only for model-backed checks, whose every run " +
          "is recorded with its usage",
      ),
    targetSeq: z
      .number()
      .int()
      .optional()
      .describe("`seq` of the entry checked (a `user.message`, or the tool result / `agent.message` written with it)"),
    toolUseId: z.string().optional().describe("`tool_result` stage: the tool use whose result was checked"),
    spans: z.array(GuardrailSpanSchema).describe("Where the findings are in the checked text (never their values)"),
    originalKept: z
      .boolean()
      .optional()
      .describe(
        "`redact`: true when the log keeps the text as it was (only the model is sent the redacted text), false when " +
          "the entry checked holds the redacted text",
      ),
    score: z
      .number()
      .optional()
      .describe("`prompt_injection`: the signals' score; `llm_judge`: the judge's score; `moderation`: the top score"),
    categories: z.array(z.string()).optional().describe("`moderation`: the categories that counted"),
    language: z.string().optional().describe("`language`: the language detected (ISO 639-3)"),
    reason: z.string().optional().describe("`llm_judge`: the judge's reason (model-written, at most 500 characters)"),
    usage: z
      .object({
        model: z.string().describe("`provider/model` called"),
        modelCalls: z.number().int(),
        inputTokens: z.number().int(),
        outputTokens: z.number().int(),
      })
      .optional()
      .describe("Model-backed checks: the call, counted on usage and budgets like every model call"),
    costUsd: z.number().nullable().optional().describe("Model-backed checks: estimated cost; null when unknown"),
  },
  "A guardrail's decision: what it checked, what it found (offsets and kinds, never the values) and what it did",
);

/** Every typed log entry by component name (the OpenAPI document registers each under its name). */
export const SessionLogEventSchemas = {
  UserMessageEvent: UserMessageLogEventSchema,
  UserInterruptEvent: UserInterruptLogEventSchema,
  UserToolConfirmationEvent: UserToolConfirmationLogEventSchema,
  UserCustomToolResultEvent: UserCustomToolResultLogEventSchema,
  SessionStatusRunningEvent: SessionStatusRunningLogEventSchema,
  SessionStatusIdleEvent: SessionStatusIdleLogEventSchema,
  SessionErrorEvent: SessionErrorLogEventSchema,
  SessionMcpServerUnavailableEvent: SessionMcpServerUnavailableLogEventSchema,
  AgentMessageEvent: AgentMessageLogEventSchema,
  AgentToolUseEvent: AgentToolUseLogEventSchema,
  AgentMcpToolUseEvent: AgentMcpToolUseLogEventSchema,
  AgentCustomToolUseEvent: AgentCustomToolUseLogEventSchema,
  AgentToolResultEvent: AgentToolResultLogEventSchema,
  AgentMcpToolResultEvent: AgentMcpToolResultLogEventSchema,
  AgentUsageEvent: AgentUsageLogEventSchema,
  AgentThinkingEvent: AgentThinkingLogEventSchema,
  SessionCompactionEvent: SessionCompactionLogEventSchema,
  SessionOutcomeEvaluationEvent: SessionOutcomeEvaluationLogEventSchema,
  SessionGuardrailEvent: SessionGuardrailLogEventSchema,
} as const;

/** A log entry of a type this contract knows, discriminated on `type`. */
export const SessionLogEventSchema = z
  .discriminatedUnion("type", [
    UserMessageLogEventSchema,
    UserInterruptLogEventSchema,
    UserToolConfirmationLogEventSchema,
    UserCustomToolResultLogEventSchema,
    SessionStatusRunningLogEventSchema,
    SessionStatusIdleLogEventSchema,
    SessionErrorLogEventSchema,
    SessionMcpServerUnavailableLogEventSchema,
    AgentMessageLogEventSchema,
    AgentToolUseLogEventSchema,
    AgentMcpToolUseLogEventSchema,
    AgentCustomToolUseLogEventSchema,
    AgentToolResultLogEventSchema,
    AgentMcpToolResultLogEventSchema,
    AgentUsageLogEventSchema,
    AgentThinkingLogEventSchema,
    SessionCompactionLogEventSchema,
    SessionOutcomeEvaluationLogEventSchema,
    SessionGuardrailLogEventSchema,
  ])
  .describe("Session log entry of a known type");

export type McpToolResultContent = z.infer<typeof McpToolResultContentSchema>;
export type UserMessageEvent = z.infer<typeof UserMessageLogEventSchema>;
export type UserInterruptEvent = z.infer<typeof UserInterruptLogEventSchema>;
export type UserToolConfirmationEvent = z.infer<typeof UserToolConfirmationLogEventSchema>;
export type UserCustomToolResultEvent = z.infer<typeof UserCustomToolResultLogEventSchema>;
export type SessionStatusRunningEvent = z.infer<typeof SessionStatusRunningLogEventSchema>;
export type SessionStatusIdleEvent = z.infer<typeof SessionStatusIdleLogEventSchema>;
export type SessionErrorEvent = z.infer<typeof SessionErrorLogEventSchema>;
export type SessionMcpServerUnavailableEvent = z.infer<typeof SessionMcpServerUnavailableLogEventSchema>;
export type AgentMessageEvent = z.infer<typeof AgentMessageLogEventSchema>;
export type AgentToolUseEvent = z.infer<typeof AgentToolUseLogEventSchema>;
export type AgentMcpToolUseEvent = z.infer<typeof AgentMcpToolUseLogEventSchema>;
export type AgentCustomToolUseEvent = z.infer<typeof AgentCustomToolUseLogEventSchema>;
export type AgentToolResultEvent = z.infer<typeof AgentToolResultLogEventSchema>;
export type AgentMcpToolResultEvent = z.infer<typeof AgentMcpToolResultLogEventSchema>;
export type AgentUsageEvent = z.infer<typeof AgentUsageLogEventSchema>;
export type AgentThinkingEvent = z.infer<typeof AgentThinkingLogEventSchema>;
export type SessionCompactionEvent = z.infer<typeof SessionCompactionLogEventSchema>;
export type SessionOutcomeEvaluationEvent = z.infer<typeof SessionOutcomeEvaluationLogEventSchema>;
export type SessionGuardrailEvent = z.infer<typeof SessionGuardrailLogEventSchema>;

/** A log entry of a known type; narrow on `type`. Newer servers may send other types: keep a default branch. */
export type SessionLogEvent = z.infer<typeof SessionLogEventSchema>;
export type SessionLogEventType = SessionLogEvent["type"];

/**
 * A log entry as the list route returns it: a known type, or any other type (a newer server's) with its fields kept.
 * Read `type` before the payload.
 */
export const SessionLogEntrySchema = z
  .union([SessionLogEventSchema, SessionEventSchema])
  .describe("Session log entry: a known type, or a type added later with its own payload");

export const SessionEventPageSchema = z.object({
  data: z.array(SessionLogEntrySchema),
  hasMore: z.boolean(),
  nextAfterSeq: z
    .number()
    .int()
    .describe("Pass as the next `afterSeq`: the `seq` of the last entry returned, or the `afterSeq` sent when none"),
});

export type SessionLogEntry = z.infer<typeof SessionLogEntrySchema>;
export type SessionEventPage = z.infer<typeof SessionEventPageSchema>;
