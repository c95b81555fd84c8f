import { z } from "zod";

/**
 * Live reply deltas: SSE events (`event: agent.delta`, no `id:` line) sent to followers of
 * `GET …/sessions/:id/events/stream?deltas=true` while the model writes. They are not log entries: no `seq`, not
 * replayed on resume, best effort (a follower that falls behind loses deltas, never entries). The `agent.message`
 * entry that follows is authoritative and replaces them.
 */
export const SESSION_DELTA_EVENT = "agent.delta";

export const SessionDeltaSchema = z
  .object({
    type: z.literal(SESSION_DELTA_EVENT),
    afterSeq: z
      .number()
      .int()
      .min(0)
      .describe("The log's last `seq` when the model call started: the reply's entries come after it"),
    call: z.number().int().min(1).describe("The model call within the turn (1 for the turn's first call)"),
    kind: z
      .enum(["text", "reasoning", "tool_input"])
      .describe("Reply text, reasoning text where the provider streams it, or a tool call's input JSON as it forms"),
    delta: z.string().describe("The next fragment; the fragments of one `kind` (and tool call) concatenate"),
    toolCallId: z.string().optional().describe("For `tool_input`: the tool call the fragment belongs to"),
    toolName: z.string().optional().describe("For `tool_input`: the tool being called"),
  })
  .describe("A fragment of the reply being written (ephemeral, not a log entry)");
export type SessionDelta = z.infer<typeof SessionDeltaSchema>;

/**
 * Sent to delta followers when an `output` guardrail blocked or redacted the reply whose deltas they received: the
 * streamed text must be taken back (it never becomes final). A blocked reply has no `agent.message`; a redacted one's
 * `agent.message` holds the redacted text.
 */
export const SESSION_DELTA_WITHDRAWN_EVENT = "agent.delta_withdrawn";

export const SessionDeltaWithdrawnSchema = z
  .object({
    type: z.literal(SESSION_DELTA_WITHDRAWN_EVENT),
    afterSeq: z.number().int().min(0).describe("The `afterSeq` of the withdrawn deltas"),
    call: z.number().int().min(1).describe("The `call` of the withdrawn deltas"),
    reason: z
      .enum(["guardrail_blocked", "guardrail_redacted"])
      .describe("`guardrail_blocked`: the reply is not written; `guardrail_redacted`: its `agent.message` is redacted"),
  })
  .describe("The deltas of a model call are withdrawn (ephemeral, not a log entry)");
export type SessionDeltaWithdrawn = z.infer<typeof SessionDeltaWithdrawnSchema>;
