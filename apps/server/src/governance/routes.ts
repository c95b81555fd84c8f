import { governanceContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { authOf, requireAdmin } from "../http/auth-context.js";
import { getWorkspaceEgressPolicy, putWorkspaceEgressPolicy } from "./egress-policy-service.js";

const s = initServer();

export function governanceRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  return s.router(governanceContract, {
    getEgressPolicy: async ({ req }) => ({
      status: 200,
      body: await getWorkspaceEgressPolicy(prisma, authOf(req).workspaceId),
    }),
    putEgressPolicy: async ({ req, body }) => ({
      status: 200,
      body: await putWorkspaceEgressPolicy(prisma, requireAdmin(req).workspaceId, body),
    }),
  });
}
