import type { CursorPage, WebhookDelivery } from "@agent-platform/contract";
import type { WebhookDelivery as DeliveryRow } from "@agent-platform/db";
import type { AppContext } from "../context.js";
import { AppError } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { inTransaction } from "../lib/transaction.js";
import { findEndpoint } from "./endpoints-service.js";
import { insertDeliveries } from "./publish.js";
import { toDelivery } from "./serialize.js";

export async function listDeliveries(
  ctx: AppContext,
  workspaceId: string,
  webhookId: string,
  query: { limit: number; cursor?: string; status?: WebhookDelivery["status"] },
): Promise<CursorPage<WebhookDelivery>> {
  await findEndpoint(ctx.db.prisma, workspaceId, webhookId);
  const filters = { webhookId, status: query.status };
  const after = decodeCursor(query.cursor, filters);
  const rows = await ctx.db.prisma.webhookDelivery.findMany({
    where: { webhookId, ...(query.status ? { status: query.status } : {}), ...(after ? { id: { lt: after } } : {}) },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, filters, (r) => r.id, toDelivery);
}

/** Queues one delivery to one endpoint and returns it (pending). */
async function queueOne(
  ctx: AppContext,
  webhookId: string,
  event: { eventId: string; eventType: string; payload: string },
): Promise<WebhookDelivery> {
  const id = newId("webhookDelivery");
  const row = await inTransaction(ctx.db.pool, async (client) => {
    await insertDeliveries(client, [{ id, webhookId, orderKey: id }], event);
    const { rows } = await client.query<DeliveryRow>(`SELECT * FROM webhook_deliveries WHERE "id" = $1`, [id]);
    return rows[0]!;
  });
  return toDelivery(row);
}

/** `webhook.test`: a delivery to this endpoint whatever it subscribes to (it must be enabled to be sent). */
export async function sendTestEvent(ctx: AppContext, workspaceId: string, webhookId: string): Promise<WebhookDelivery> {
  await findEndpoint(ctx.db.prisma, workspaceId, webhookId);
  const payload = {
    type: "webhook.test",
    timestamp: new Date().toISOString(),
    data: { webhookId, message: "A test event from Agent Platform" },
  };
  return queueOne(ctx, webhookId, {
    eventId: newId("webhookMessage"),
    eventType: "webhook.test",
    payload: JSON.stringify(payload),
  });
}

/** Sends a delivery's event again as a new delivery, with the same event id (receivers deduplicate on it). */
export async function redeliver(
  ctx: AppContext,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  await findEndpoint(ctx.db.prisma, workspaceId, webhookId);
  const original = await ctx.db.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId } });
  if (!original) throw new AppError("webhook.delivery_not_found", `Delivery ${deliveryId} was not found`);
  return queueOne(ctx, webhookId, {
    eventId: original.eventId,
    eventType: original.eventType,
    payload: JSON.stringify(original.payload),
  });
}
