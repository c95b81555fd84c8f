import {
  apiKeysContract,
  builtinToolsContract,
  modelsContract,
  platformContract,
  projectsContract,
} from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { authOf, requireAdmin } from "../http/auth-context.js";
import { modelCatalogueOf, providerSettingsOf } from "../models/index.js";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys-service.js";
import { listBuiltinTools, listCatalogueModels, listEmbeddingModels } from "./catalogue-service.js";
import { getPlatformContext } from "./context-service.js";
import { createWorkspaceProject, getProject, listProjects } from "./projects-service.js";

const s = initServer();

export function platformRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  return {
    platform: s.router(platformContract, {
      context: async ({ req }) => ({ status: 200, body: await getPlatformContext(prisma, authOf(req)) }),
    }),
    projects: s.router(projectsContract, {
      create: async ({ req, body }) => ({
        status: 201,
        body: await createWorkspaceProject(prisma, requireAdmin(req), body.name),
      }),
      list: async ({ req, query }) => ({
        status: 200,
        body: await listProjects(prisma, requireAdmin(req), query.limit, query.cursor),
      }),
      get: async ({ req, params }) => ({ status: 200, body: await getProject(prisma, authOf(req), params.projectId) }),
    }),
    models: s.router(modelsContract, {
      list: async ({ req }) => {
        authOf(req);
        const env = ctx.config.env;
        return { status: 200, body: { data: listCatalogueModels(modelCatalogueOf(env), providerSettingsOf(env)) } };
      },
      listEmbedding: async ({ req }) => {
        authOf(req);
        return { status: 200, body: { data: listEmbeddingModels(providerSettingsOf(ctx.config.env)) } };
      },
    }),
    tools: s.router(builtinToolsContract, {
      list: async ({ req }) => {
        authOf(req);
        return { status: 200, body: { data: listBuiltinTools() } };
      },
    }),
    apiKeys: s.router(apiKeysContract, {
      create: async ({ req, body }) => ({ status: 201, body: await createApiKey(prisma, requireAdmin(req), body) }),
      list: async ({ req, query }) => ({
        status: 200,
        body: await listApiKeys(prisma, requireAdmin(req), query.limit, query.cursor),
      }),
      revoke: async ({ req, params }) => ({
        status: 200,
        body: await revokeApiKey(ctx, requireAdmin(req), params.id),
      }),
    }),
  };
}
