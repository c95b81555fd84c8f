import { z } from "zod";
import { idOf, Timestamp } from "../common/fields.js";
import { PageQuerySchema } from "../common/pagination.js";
import { WebhookEventTypeSchema } from "./events.js";

export const WEBHOOK_LIMITS = { urlLength: 2048, descriptionLength: 500, projects: 50 } as const;

const WebhookUrl = z
  .string()
  .url()
  .max(WEBHOOK_LIMITS.urlLength)
  .refine((url) => /^https?:\/\//i.test(url), { message: "must be an http(s) URL" })
  .describe("Where deliveries are POSTed (http or https)");

const Events = z
  .array(z.union([WebhookEventTypeSchema, z.literal("*")]))
  .min(1)
  .max(32)
  .refine((events) => new Set(events).size === events.length, { message: "event types must be distinct" })
  .describe('Event types to receive, or `["*"]` for all (including types added later)');

const ProjectIds = z
  .array(z.string().min(1).max(64))
  .max(WEBHOOK_LIMITS.projects)
  .nullable()
  .describe("Only events of these projects; null or absent: every project of the workspace");

export const CreateWebhookSchema = z
  .object({
    url: WebhookUrl,
    events: Events,
    description: z.string().max(WEBHOOK_LIMITS.descriptionLength).optional(),
    projectIds: ProjectIds.optional(),
  })
  .strict();

export const UpdateWebhookSchema = z
  .object({
    url: WebhookUrl.optional(),
    events: Events.optional(),
    description: z.string().max(WEBHOOK_LIMITS.descriptionLength).nullable().optional(),
    projectIds: ProjectIds.optional(),
    enabled: z.boolean().optional().describe("`true` re-enables an endpoint disabled after failures"),
  })
  .strict();

export const WebhookSchema = z
  .object({
    id: idOf("wh"),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    projectIds: z.array(z.string()).nullable(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().describe("Why the platform disabled the endpoint (repeated failures)"),
    secretRotatedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("Webhook endpoint; its signing secret is shown only at creation and rotation");

export const WebhookWithSecretSchema = WebhookSchema.extend({
  secret: z.string().describe("`whsec_…` signing secret (Standard Webhooks); shown only in this response"),
});

export const RotatedWebhookSecretSchema = z.object({
  webhook: WebhookSchema,
  secret: z.string().describe("The new `whsec_…` secret; shown only in this response"),
  previousSecretExpiresAt: Timestamp.describe("Until then deliveries are signed with both secrets"),
});

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

export const WebhookDeliverySchema = z
  .object({
    id: idOf("whdel"),
    webhookId: idOf("wh"),
    eventId: z.string().describe("`msg_…`: the `webhook-id` header; the same on every attempt and redelivery"),
    eventType: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable().describe("HTTP status of the last attempt; null without a response"),
    lastError: z.string().nullable(),
    latencyMs: z.number().int().nullable().describe("Duration of the last attempt"),
    nextAttemptAt: Timestamp.nullable().describe("When the next attempt is due (pending deliveries)"),
    createdAt: Timestamp,
    finishedAt: Timestamp.nullable(),
  })
  .describe("One event's delivery to one endpoint, with its attempts");

export const WebhookDeliveryListQuery = PageQuerySchema.extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});

export type CreateWebhook = z.infer<typeof CreateWebhookSchema>;
export type UpdateWebhook = z.infer<typeof UpdateWebhookSchema>;
export type Webhook = z.infer<typeof WebhookSchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
