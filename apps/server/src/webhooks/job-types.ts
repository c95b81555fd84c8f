import { jobType, NO_PAYLOAD } from "../jobs/index.js";

/** The job kind of webhook deliveries; its key is `<webhookId>:<orderKey>` (one sender per endpoint and order key). */
export const DELIVERY_JOB = jobType("webhook.delivery", NO_PAYLOAD);

export function deliveryJobKey(webhookId: string, orderKey: string): string {
  return `${webhookId}:${orderKey}`;
}

export function parseDeliveryJobKey(key: string): { webhookId: string; orderKey: string } | null {
  const colon = key.indexOf(":");
  if (colon <= 0) return null;
  return { webhookId: key.slice(0, colon), orderKey: key.slice(colon + 1) };
}
