import { serverlessToolsContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { projectScope } from "../http/auth-context.js";
import { publishServerlessToolVersion } from "./publish-version.js";
import {
  archiveServerlessTool,
  createServerlessTool,
  getServerlessTool,
  listServerlessTools,
  listServerlessToolVersions,
} from "./serverless-tools-service.js";

const s = initServer();

export function serverlessToolRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  return s.router(serverlessToolsContract, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createServerlessTool(prisma, projectScope(req, params.projectId), body),
    }),
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listServerlessTools(prisma, projectScope(req, params.projectId).projectId, query),
    }),
    get: async ({ req, params, query }) => ({
      status: 200,
      body: await getServerlessTool(prisma, projectScope(req, params.projectId).projectId, params.id, query.version),
    }),
    publish: async ({ req, params, body }) => ({
      status: 200,
      body: await publishServerlessToolVersion(prisma, projectScope(req, params.projectId), params.id, body),
    }),
    listVersions: async ({ req, params, query }) => ({
      status: 200,
      body: await listServerlessToolVersions(prisma, projectScope(req, params.projectId).projectId, params.id, query),
    }),
    archive: async ({ req, params }) => ({
      status: 200,
      body: await archiveServerlessTool(prisma, projectScope(req, params.projectId).projectId, params.id),
    }),
  });
}
