// What other folders may use of webhooks: publishing events (the runtime, automations, experiments), and what the
// composition root wires (routes, the delivery job kind).
export { webhookDeliveryKind } from "./delivery-job.js";
export { hasWebhookEndpoints, type PublishedEvent, publishWebhookEvent } from "./publish.js";
export { deleteExpiredWebhookDeliveries } from "./retention.js";
export { webhookRoutes } from "./routes.js";
