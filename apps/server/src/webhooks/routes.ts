import { webhooksContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { requireAdmin } from "../http/auth-context.js";
import { listDeliveries, redeliver, sendTestEvent } from "./deliveries-service.js";
import {
  createWebhook,
  deleteWebhook,
  findEndpoint,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from "./endpoints-service.js";
import { toWebhook } from "./serialize.js";

const s = initServer();

/** Webhook endpoints are workspace administration: every route needs an admin key. */
export function webhookRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  const workspace = (req: Parameters<typeof requireAdmin>[0]) => requireAdmin(req).workspaceId;
  return s.router(webhooksContract, {
    create: async ({ req, body }) => ({ status: 201, body: await createWebhook(ctx, workspace(req), body) }),
    list: async ({ req, query }) => ({ status: 200, body: await listWebhooks(prisma, workspace(req), query) }),
    get: async ({ req, params }) => ({
      status: 200,
      body: toWebhook(await findEndpoint(prisma, workspace(req), params.id)),
    }),
    update: async ({ req, params, body }) => ({
      status: 200,
      body: await updateWebhook(ctx, workspace(req), params.id, body),
    }),
    remove: async ({ req, params }) => {
      await deleteWebhook(ctx, workspace(req), params.id);
      return { status: 204, body: undefined };
    },
    rotateSecret: async ({ req, params }) => ({
      status: 200,
      body: await rotateWebhookSecret(ctx, workspace(req), params.id),
    }),
    test: async ({ req, params }) => ({ status: 202, body: await sendTestEvent(ctx, workspace(req), params.id) }),
    listDeliveries: async ({ req, params, query }) => ({
      status: 200,
      body: await listDeliveries(ctx, workspace(req), params.id, query),
    }),
    redeliver: async ({ req, params }) => ({
      status: 202,
      body: await redeliver(ctx, workspace(req), params.id, params.deliveryId),
    }),
  });
}
