import { environmentsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { projectScope } from "../http/auth-context.js";
import {
  archiveEnvironment,
  createEnvironment,
  getEnvironment,
  listEnvironments,
  updateEnvironment,
} from "./environments-service.js";

const s = initServer();

export function environmentRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  return s.router(environmentsContract, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createEnvironment(prisma, projectScope(req, params.projectId), body),
    }),
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listEnvironments(prisma, projectScope(req, params.projectId).projectId, query),
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getEnvironment(prisma, projectScope(req, params.projectId).projectId, params.id),
    }),
    update: async ({ req, params, body }) => ({
      status: 200,
      body: await updateEnvironment(prisma, projectScope(req, params.projectId), params.id, body),
    }),
    archive: async ({ req, params }) => ({
      status: 200,
      body: await archiveEnvironment(prisma, projectScope(req, params.projectId).projectId, params.id),
    }),
  });
}
