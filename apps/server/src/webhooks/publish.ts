import type { WebhookEvent, WebhookEventType } from "@agent-platform/contract";
import type pg from "pg";
import type { AppContext } from "../context.js";
import { newId } from "../ids.js";
import { enqueueJobs } from "../jobs/index.js";
import { workspaceHasEndpoints } from "./endpoint-cache.js";
import { DELIVERY_JOB, deliveryJobKey } from "./job-types.js";

type Queryable = Pick<pg.Pool, "query">;

export interface PublishedEvent<T extends WebhookEventType = WebhookEventType> {
  workspaceId: string;
  projectId: string;
  type: T;
  data: Extract<WebhookEvent, { type: T }>["data"];
  /** Events with the same order key reach an endpoint in the order they were published (e.g. a session id). */
  orderKey?: string;
}

/** Whether the workspace has an enabled endpoint (known per process; usually no read). */
export function hasWebhookEndpoints(ctx: AppContext, workspaceId: string): Promise<boolean> {
  return workspaceHasEndpoints(ctx, ctx.db.pool, workspaceId);
}

/**
 * Publishes an event to the workspace's subscribed, enabled endpoints, in the caller's transaction (`db`): one delivery
 * per endpoint and the delivery jobs are recorded with what the event reports, or not at all. A workspace without
 * endpoints costs no query (a per-process cache, invalidated by NOTIFY).
 */
export async function publishWebhookEvent(ctx: AppContext, db: Queryable, event: PublishedEvent): Promise<number> {
  if (!(await workspaceHasEndpoints(ctx, db, event.workspaceId))) return 0;
  const { rows: endpoints } = await db.query<{ id: string }>(
    `SELECT "id" FROM webhook_endpoints
     WHERE "workspaceId" = $1 AND "enabled" AND ($2 = ANY("events") OR '*' = ANY("events"))
       AND ("allProjects" OR $3 = ANY("projectIds"))`,
    [event.workspaceId, event.type, event.projectId],
  );
  if (endpoints.length === 0) return 0;
  const eventId = newId("webhookMessage");
  const payload = JSON.stringify({ type: event.type, timestamp: new Date().toISOString(), data: event.data });
  const deliveries = endpoints.map((endpoint) => {
    const id = newId("webhookDelivery");
    return { id, webhookId: endpoint.id, orderKey: event.orderKey ?? id };
  });
  await insertDeliveries(db, deliveries, { eventId, eventType: event.type, payload });
  return deliveries.length;
}

/** Records pending deliveries of one event and requests their jobs (one statement each). */
export async function insertDeliveries(
  db: Queryable,
  deliveries: readonly { id: string; webhookId: string; orderKey: string }[],
  event: { eventId: string; eventType: string; payload: string },
): Promise<void> {
  await db.query(
    `INSERT INTO webhook_deliveries ("id", "webhookId", "eventId", "eventType", "orderKey", "payload", "status")
     SELECT d.id, d.webhook, $4, $5, d.order_key, $6::jsonb, 'pending'
     FROM unnest($1::text[], $2::text[], $3::text[]) AS d(id, webhook, order_key)`,
    [
      deliveries.map((d) => d.id),
      deliveries.map((d) => d.webhookId),
      deliveries.map((d) => d.orderKey),
      event.eventId,
      event.eventType,
      event.payload,
    ],
  );
  await enqueueJobs(
    db,
    DELIVERY_JOB,
    deliveries.map((d) => ({ key: deliveryJobKey(d.webhookId, d.orderKey) })),
  );
}
