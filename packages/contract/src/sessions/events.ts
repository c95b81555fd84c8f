import { z } from "zod";
import { Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { boundedText } from "../resources/shared.js";

/** Ids of tool-use events (`evt_…`) that confirmations and custom tool results answer. */
const ToolUseId = z.string().min(1).max(64);

export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(LIMITS.sessionEventIdempotencyKey)
  .describe(
    "Stable key of this event: an event whose key the session already has is not appended again; its original log " +
      "entry is acknowledged with `duplicate: true`",
  );

export const TextPartSchema = z
  .object({ type: z.literal("text"), text: boundedText(LIMITS.sessionEventTextBytes) })
  .strict()
  .describe("A text part");

const idempotencyKey = IdempotencyKeySchema.optional();

export const UserMessageEventSchema = z
  .object({
    type: z.literal("user.message"),
    content: z
      .array(
        TextPartSchema.extend({
          text: boundedText(LIMITS.sessionEventTextBytes, 1),
        }),
      )
      .min(1)
      .max(LIMITS.sessionEventParts),
    idempotencyKey,
  })
  .strict()
  .describe("A user message or instruction; wakes the agent");

export const UserInterruptEventSchema = z
  .object({ type: z.literal("user.interrupt"), idempotencyKey })
  .strict()
  .describe("Stops the running model call or tool; the turn ends with stop reason `interrupted`");

export const UserToolConfirmationEventSchema = z
  .object({
    type: z.literal("user.tool_confirmation"),
    toolUseId: ToolUseId.describe("`id` of the pending tool-use event (it carries `requiresConfirmation: true`)"),
    result: z.enum(["allow", "deny"]),
    denyMessage: boundedText(LIMITS.sessionDenyMessageBytes)
      .optional()
      .describe("Only with `deny`: the reason the model is told"),
    idempotencyKey,
  })
  .strict()
  .describe("Approves or denies a tool use that waits for confirmation");

export const UserCustomToolResultEventSchema = z
  .object({
    type: z.literal("user.custom_tool_result"),
    customToolUseId: ToolUseId.describe("`id` of the pending `agent.custom_tool_use` event"),
    content: z.array(TextPartSchema).max(LIMITS.sessionEventParts),
    isError: z.boolean().optional().describe("The tool failed; `content` describes the failure"),
    idempotencyKey,
  })
  .strict()
  .describe("The result of a custom tool run by the client's backend");

/** An event a client may send, discriminated on `type`. */
export const UserEventSchema = z
  .discriminatedUnion("type", [
    UserMessageEventSchema,
    UserInterruptEventSchema,
    UserToolConfirmationEventSchema,
    UserCustomToolResultEventSchema,
  ])
  .superRefine((event, ctx) => {
    if (event.type === "user.tool_confirmation" && event.result === "allow" && event.denyMessage !== undefined) {
      ctx.addIssue({ code: "custom", path: ["denyMessage"], message: "only allowed when `result` is `deny`" });
    }
  });

/** A batch: accepted whole or refused whole. Idempotency keys must differ within one batch. */
export const UserEventBatchSchema = z
  .array(UserEventSchema)
  .min(1)
  .max(LIMITS.sessionEventsPerPost)
  .superRefine((events, ctx) => {
    const seen = new Map<string, number>();
    events.forEach((event, index) => {
      if (event.idempotencyKey === undefined) return;
      const first = seen.get(event.idempotencyKey);
      if (first !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [index, "idempotencyKey"],
          message: `repeats the idempotencyKey of event ${first} of this batch`,
        });
      } else seen.set(event.idempotencyKey, index);
    });
  });

export const IngestEventsSchema = z.object({ events: UserEventBatchSchema }).strict();

export const SESSION_EVENTS_PAGE_DEFAULT = LIMITS.sessionEventsPageDefault;
export const SESSION_EVENTS_PAGE_MAX = LIMITS.sessionEventsPageMax;

export const SessionEventListQuery = z.object({
  afterSeq: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("Return entries with `seq` greater than this (default 0: from the start)"),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(SESSION_EVENTS_PAGE_MAX)
    .default(SESSION_EVENTS_PAGE_DEFAULT)
    .describe(`Entries per page: default ${SESSION_EVENTS_PAGE_DEFAULT}, at most ${SESSION_EVENTS_PAGE_MAX}`),
});

/**
 * A log entry of any type: `{ seq, id, type, createdAt, ...payload }`, unknown fields kept. The typed entries are in
 * `log-events.ts` (`SessionLogEventSchema`); this is the fallback for types a newer server adds.
 */
export const SessionEventSchema = z
  .object({
    seq: z.number().int().min(1).describe("Position in the log: 1, 2, 3… without gaps"),
    id: z.string().describe("`evt_` id; a tool use is referred to by the id of its event"),
    type: z.string().describe("`user.message`, `agent.message`, `session.status_idle`, …"),
    createdAt: Timestamp,
  })
  .passthrough()
  .describe("Session log entry: these fields plus the type's payload");

export const IngestedEventSchema = z.object({
  seq: z.number().int(),
  id: z.string(),
  type: z.string(),
  idempotencyKey: z.string().optional(),
  duplicate: z
    .boolean()
    .describe("`true`: an event with this idempotencyKey was already in the log; this is that original entry"),
});

export type UserEvent = z.infer<typeof UserEventSchema>;
export type SessionEvent = z.infer<typeof SessionEventSchema>;
export type IngestedEvent = z.infer<typeof IngestedEventSchema>;
