import { z } from "zod";
import { idOf, Timestamp } from "../common/fields.js";
import { ExperimentTotalsSchema } from "../experiments/experiments.js";
import { PendingActionSchema } from "../sessions/sessions.js";

/**
 * The catalogue of webhook events (version 1). A delivery's body is `{ type, timestamp, data }`; `data` carries ids and
 * what a receiver needs to act, never secrets. Adding an event type or a field is not a breaking change; receivers
 * ignore what they do not know.
 */
const SessionRef = {
  projectId: idOf("proj"),
  sessionId: idOf("sess"),
  agentId: idOf("agent"),
};

export const WebhookEventDataSchemas = {
  "session.idle": z
    .object({ ...SessionRef, stopReason: z.string().describe("`end_turn`, `requires_action`, `interrupted`, …") })
    .describe("A session went idle: its turn ended (every stop reason)"),
  "session.requires_action": z
    .object({ ...SessionRef, pendingActions: z.array(PendingActionSchema) })
    .describe("A session waits for confirmations or custom tool results (`user.tool_confirmation`, …)"),
  "session.error": z
    .object({ ...SessionRef, error: z.object({ code: z.string(), message: z.string() }) })
    .describe("A session's turn ended with an error (`session.error` in its log)"),
  "session.outcome_evaluated": z
    .object({
      ...SessionRef,
      state: z.enum(["passed", "failed"]).describe("The outcome's final state for the turn"),
      revisions: z.number().int().describe("Revisions the turn took"),
    })
    .describe("A session's turn ended with its answer graded: the outcome passed, or failed with no revision left"),
  "session.guardrail": z
    .object({
      ...SessionRef,
      guardrail: z.string().describe("The guardrail's name"),
      stage: z.enum(["input", "tool_result", "output"]),
      check: z.string().describe("The check's type (`pii`, `prompt_injection`, `moderation`…)"),
      action: z.enum(["block", "redact", "flag"]),
      seq: z.number().int().describe("`seq` of the `session.guardrail` entry in the session's log"),
    })
    .describe("A guardrail triggered in a session's turn (sent when the turn ends, one per decision, in log order)"),
  "automation.run.started": z
    .object({
      projectId: idOf("proj"),
      automationId: idOf("auto"),
      runId: idOf("autrun"),
      sessionId: idOf("sess"),
      triggerKind: z.enum(["schedule", "manual"]),
    })
    .describe("An automation fired: its session was created"),
  "automation.run.error": z
    .object({
      projectId: idOf("proj"),
      automationId: idOf("auto"),
      runId: idOf("autrun"),
      triggerKind: z.enum(["schedule", "manual"]),
      error: z.string(),
    })
    .describe("An automation firing created no session (agent unavailable, budget exceeded, overlap skip)"),
  "experiment.completed": z
    .object({
      projectId: idOf("proj"),
      experimentId: idOf("exp"),
      datasetId: idOf("ds"),
      totals: ExperimentTotalsSchema,
    })
    .describe("An experiment finished every case"),
  "experiment.failed": z
    .object({ projectId: idOf("proj"), experimentId: idOf("exp"), datasetId: idOf("ds"), error: z.string() })
    .describe("An experiment could not be carried out"),
  "webhook.test": z
    .object({ webhookId: idOf("wh"), message: z.string() })
    .describe("Sent by `POST /v1/webhooks/:id/test`"),
} as const;

export type WebhookEventType = keyof typeof WebhookEventDataSchemas;
export const WEBHOOK_EVENT_TYPES = Object.keys(WebhookEventDataSchemas) as [WebhookEventType, ...WebhookEventType[]];
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

/** The body of one delivery: a discriminated union on `type`. */
export const WebhookEventSchema = z.discriminatedUnion(
  "type",
  WEBHOOK_EVENT_TYPES.map((type) =>
    z.object({ type: z.literal(type), timestamp: Timestamp, data: WebhookEventDataSchemas[type] }),
  ) as unknown as [
    z.ZodObject<{ type: z.ZodLiteral<WebhookEventType>; timestamp: typeof Timestamp; data: z.ZodTypeAny }>,
    ...z.ZodObject<{ type: z.ZodLiteral<WebhookEventType>; timestamp: typeof Timestamp; data: z.ZodTypeAny }>[],
  ],
);

export type WebhookEvent = {
  [T in WebhookEventType]: { type: T; timestamp: string; data: z.infer<(typeof WebhookEventDataSchemas)[T]> };
}[WebhookEventType];
