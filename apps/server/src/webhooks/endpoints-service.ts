import type { CreateWebhook, CursorPage, UpdateWebhook, Webhook } from "@agent-platform/contract";
import type { Database, WebhookEndpoint as EndpointRow } from "@agent-platform/db";
import type { AppContext } from "../context.js";
import { AppError, notFound } from "../http/app-error.js";
import { decodeCursor, pageOf } from "../http/pagination.js";
import { newId } from "../ids.js";
import { inTransaction } from "../lib/transaction.js";
import { announceEndpointChange, forgetEndpoints } from "./endpoint-cache.js";
import { checkReceiverAddress } from "./receiver-address.js";
import { failPending } from "./record-attempt.js";
import { toWebhook } from "./serialize.js";
import { newSigningSecret, ROTATION_OVERLAP_MS } from "./signing-secret.js";

export async function findEndpoint(prisma: Database, workspaceId: string, id: string): Promise<EndpointRow> {
  const row = await prisma.webhookEndpoint.findFirst({ where: { id, workspaceId } });
  if (!row) throw notFound("webhook.not_found", "Webhook", id);
  return row;
}

/** Projects named by an endpoint must be projects of the workspace (422 `webhook.project_not_found`). */
async function checkProjects(prisma: Database, workspaceId: string, projectIds: string[] | null | undefined) {
  if (!projectIds || projectIds.length === 0) return;
  const found = await prisma.project.findMany({ where: { workspaceId, id: { in: projectIds } }, select: { id: true } });
  const known = new Set(found.map((p) => p.id));
  const missing = projectIds.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw new AppError("webhook.project_not_found", `Project ${missing.join(", ")} is not a project of this workspace`);
  }
}

const projectsData = (projectIds: string[] | null | undefined) =>
  projectIds === undefined
    ? {}
    : projectIds === null
      ? { allProjects: true, projectIds: [] }
      : { allProjects: false, projectIds: [...new Set(projectIds)] };

/** Creates an endpoint with a new signing secret, returned this once. */
export async function createWebhook(
  ctx: AppContext,
  workspaceId: string,
  body: CreateWebhook,
): Promise<Webhook & { secret: string }> {
  const prisma = ctx.db.prisma;
  await checkProjects(prisma, workspaceId, body.projectIds);
  await checkReceiverAddress(ctx, body.url);
  const secret = newSigningSecret();
  const row = await prisma.webhookEndpoint.create({
    data: {
      id: newId("webhook"),
      workspaceId,
      url: body.url,
      events: body.events,
      description: body.description ?? null,
      secret: ctx.secrets.seal(secret),
      ...projectsData(body.projectIds ?? null),
    },
  });
  await announceEndpointChange(ctx.db.pool, workspaceId);
  forgetEndpoints(ctx, workspaceId);
  return { ...toWebhook(row), secret };
}

export async function listWebhooks(
  prisma: Database,
  workspaceId: string,
  query: { limit: number; cursor?: string },
): Promise<CursorPage<Webhook>> {
  const after = decodeCursor(query.cursor, {});
  const rows = await prisma.webhookEndpoint.findMany({
    where: { workspaceId, ...(after ? { id: { lt: after } } : {}) },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  return pageOf(rows, query.limit, {}, (r) => r.id, toWebhook);
}

/**
 * PATCH: only the fields sent change (`description: null` clears it, `projectIds: null` means every project).
 * `enabled: true` re-enables an endpoint the platform disabled (its failure count starts over); `enabled: false`
 * disables it and fails its pending deliveries (they can be redelivered).
 */
export async function updateWebhook(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  body: UpdateWebhook,
): Promise<Webhook> {
  const prisma = ctx.db.prisma;
  await findEndpoint(prisma, workspaceId, id);
  await checkProjects(prisma, workspaceId, body.projectIds);
  await checkReceiverAddress(ctx, body.url);
  const row = await inTransaction(ctx.db.pool, async (client) => {
    const { rows } = await client.query<EndpointRow>(
      `UPDATE webhook_endpoints SET
         "url" = COALESCE($3, "url"),
         "events" = COALESCE($4::text[], "events"),
         "description" = CASE WHEN $5 THEN $6 ELSE "description" END,
         "allProjects" = CASE WHEN $7 THEN $8 ELSE "allProjects" END,
         "projectIds" = CASE WHEN $7 THEN $9::text[] ELSE "projectIds" END,
         "enabled" = COALESCE($10, "enabled"),
         "disabledReason" = CASE WHEN $10 IS NULL THEN "disabledReason" ELSE NULL END,
         "consecutiveFailures" = CASE WHEN $10 THEN 0 ELSE "consecutiveFailures" END,
         "updatedAt" = now()
       WHERE "id" = $1 AND "workspaceId" = $2 RETURNING *`,
      [
        id,
        workspaceId,
        body.url ?? null,
        body.events ?? null,
        body.description !== undefined,
        body.description ?? null,
        body.projectIds !== undefined,
        body.projectIds === null,
        body.projectIds ? [...new Set(body.projectIds)] : [],
        body.enabled ?? null,
      ],
    );
    if (!rows[0]) throw notFound("webhook.not_found", "Webhook", id);
    if (body.enabled === false) await failPending(client, id, "The endpoint was disabled");
    await announceEndpointChange(client, workspaceId);
    return rows[0];
  });
  forgetEndpoints(ctx, workspaceId);
  return toWebhook(row);
}

/** Deletes the endpoint, its deliveries and (when they next run) their jobs. */
export async function deleteWebhook(ctx: AppContext, workspaceId: string, id: string): Promise<void> {
  await inTransaction(ctx.db.pool, async (client) => {
    const { rowCount } = await client.query(`DELETE FROM webhook_endpoints WHERE "id" = $1 AND "workspaceId" = $2`, [
      id,
      workspaceId,
    ]);
    if (!rowCount) throw notFound("webhook.not_found", "Webhook", id);
    await announceEndpointChange(client, workspaceId);
  });
  forgetEndpoints(ctx, workspaceId);
}

/** A new secret, returned once; the previous one keeps signing (both signatures sent) for `ROTATION_OVERLAP_MS`. */
export async function rotateWebhookSecret(ctx: AppContext, workspaceId: string, id: string) {
  const current = await findEndpoint(ctx.db.prisma, workspaceId, id);
  const secret = newSigningSecret();
  const previousSecretExpiresAt = new Date(Date.now() + ROTATION_OVERLAP_MS);
  const row = await ctx.db.prisma.webhookEndpoint.update({
    where: { id: current.id },
    data: {
      secret: ctx.secrets.seal(secret),
      previousSecret: current.secret,
      previousSecretExpiresAt,
      secretRotatedAt: new Date(),
    },
  });
  return { webhook: toWebhook(row), secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
}
