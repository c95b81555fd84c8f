import { budgetsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { requireAdmin } from "../http/auth-context.js";
import { createBudget, deleteBudget, getBudget, listBudgets } from "./budgets-service.js";

const s = initServer();

/** Budgets are workspace administration: every route needs an admin key. */
export function budgetRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  return s.router(budgetsContract, {
    create: async ({ req, body }) => ({
      status: 201,
      body: await createBudget(prisma, requireAdmin(req).workspaceId, body),
    }),
    list: async ({ req, query }) => ({
      status: 200,
      body: await listBudgets(prisma, requireAdmin(req).workspaceId, query),
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getBudget(prisma, requireAdmin(req).workspaceId, params.id),
    }),
    delete: async ({ req, params }) => ({
      status: 200,
      body: await deleteBudget(prisma, requireAdmin(req).workspaceId, params.id),
    }),
  });
}
