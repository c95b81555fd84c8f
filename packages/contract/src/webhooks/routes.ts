import { z } from "zod";
import { EmptyBodySchema } from "../common/fields.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import type { RouteDocMetadata } from "../openapi/operation-facts.js";
import {
  CreateWebhookSchema,
  RotatedWebhookSecretSchema,
  UpdateWebhookSchema,
  WebhookDeliveryListQuery,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "./webhooks.js";

const PathId = z.string().min(1).max(128);
const WebhookParams = z.object({ id: PathId });
const DeliveryParams = z.object({ id: PathId, deliveryId: PathId });

export const webhooksContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/webhooks",
      body: CreateWebhookSchema,
      responses: { 201: WebhookWithSecretSchema },
      summary: "Create a webhook endpoint (admin key)",
      description: "Answers with the endpoint and its signing secret, shown only here (and at rotation).",
      metadata: { errors: ["webhook.project_not_found"] } satisfies RouteDocMetadata,
    },
    list: {
      method: "GET",
      path: "/v1/webhooks",
      query: PageQuerySchema,
      responses: { 200: cursorPage(WebhookSchema) },
      summary: "List the workspace's webhook endpoints, newest first (admin key)",
    },
    get: {
      method: "GET",
      path: "/v1/webhooks/:id",
      pathParams: WebhookParams,
      responses: { 200: WebhookSchema },
      summary: "Get a webhook endpoint (admin key)",
    },
    update: {
      method: "PATCH",
      path: "/v1/webhooks/:id",
      pathParams: WebhookParams,
      body: UpdateWebhookSchema,
      responses: { 200: WebhookSchema },
      summary: "Change a webhook endpoint's url, events, projects, description or enabled flag (admin key)",
      metadata: { errors: ["webhook.project_not_found"] } satisfies RouteDocMetadata,
    },
    remove: {
      method: "DELETE",
      path: "/v1/webhooks/:id",
      pathParams: WebhookParams,
      body: c.noBody(),
      responses: { 204: c.noBody() },
      summary: "Delete a webhook endpoint and its deliveries (admin key)",
    },
    rotateSecret: {
      method: "POST",
      path: "/v1/webhooks/:id/rotate-secret",
      pathParams: WebhookParams,
      body: EmptyBodySchema,
      responses: { 200: RotatedWebhookSecretSchema },
      summary: "Rotate a webhook endpoint's signing secret (admin key)",
      description:
        "The new secret is shown once; for 24 hours deliveries carry signatures by both secrets, so a receiver can " +
        "switch without missing one.",
    },
    test: {
      method: "POST",
      path: "/v1/webhooks/:id/test",
      pathParams: WebhookParams,
      body: EmptyBodySchema,
      responses: { 202: WebhookDeliverySchema },
      summary: "Send a `webhook.test` event to the endpoint (admin key)",
    },
    listDeliveries: {
      method: "GET",
      path: "/v1/webhooks/:id/deliveries",
      pathParams: WebhookParams,
      query: WebhookDeliveryListQuery,
      responses: { 200: cursorPage(WebhookDeliverySchema) },
      summary: "List an endpoint's deliveries, newest first (admin key)",
    },
    redeliver: {
      method: "POST",
      path: "/v1/webhooks/:id/deliveries/:deliveryId/redeliver",
      pathParams: DeliveryParams,
      body: EmptyBodySchema,
      responses: { 202: WebhookDeliverySchema },
      summary: "Deliver an event again, as a new delivery with the same event id (admin key)",
      metadata: { errors: ["webhook.delivery_not_found"] } satisfies RouteDocMetadata,
    },
  },
  routerOptions,
);
