import { budgetsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { requireAdmin } from "../http/auth-context.js";
import { forgetBlockingBudgets } from "./blocking-cache.js";
import { createBudget, deleteBudget, getBudget, listBudgets } from "./budgets-service.js";

const s = initServer();

/**
 * Budgets are workspace administration: every route needs an admin key. A change is forgotten by this process's
 * blocking-budget cache before the answer (other processes hear it by NOTIFY), so the next request here obeys it.
 */
export function budgetRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  const changed = <T>(workspaceId: string, value: T): T => {
    forgetBlockingBudgets(ctx, workspaceId);
    return value;
  };
  return s.router(budgetsContract, {
    create: async ({ req, body }) => {
      const { workspaceId } = requireAdmin(req);
      return { status: 201, body: changed(workspaceId, await createBudget(prisma, workspaceId, body)) };
    },
    list: async ({ req, query }) => ({
      status: 200,
      body: await listBudgets(prisma, requireAdmin(req).workspaceId, query),
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getBudget(prisma, requireAdmin(req).workspaceId, params.id),
    }),
    delete: async ({ req, params }) => {
      const { workspaceId } = requireAdmin(req);
      return { status: 200, body: changed(workspaceId, await deleteBudget(prisma, workspaceId, params.id)) };
    },
  });
}
