import { memoryStoresContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { projectScope } from "../http/auth-context.js";
import {
  createMemoryStore,
  deleteMemoryStore,
  deleteStoreEntry,
  getMemoryStore,
  listMemoryStores,
  listStoreEntries,
  putStoreEntry,
  storeOf,
  updateMemoryStore,
} from "./memory-stores-service.js";
import { searchMemoryHybrid } from "./search-memory-hybrid.js";

const s = initServer();

export function memoryStoreRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  const project = (req: Parameters<typeof projectScope>[0], projectId: string) =>
    projectScope(req, projectId).projectId;
  return s.router(memoryStoresContract, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createMemoryStore(ctx, projectScope(req, params.projectId), body),
    }),
    update: async ({ req, params, body }) => ({
      status: 200,
      body: await updateMemoryStore(ctx, project(req, params.projectId), params.id, body),
    }),
    search: async ({ req, params, body }) => {
      await storeOf(prisma, project(req, params.projectId), params.id);
      return {
        status: 200,
        body: await searchMemoryHybrid(ctx, {
          storeId: params.id,
          query: body.query,
          limit: body.limit,
          mode: body.mode,
        }),
      };
    },
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listMemoryStores(prisma, project(req, params.projectId), query),
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getMemoryStore(prisma, project(req, params.projectId), params.id),
    }),
    delete: async ({ req, params }) => ({
      status: 200,
      body: await deleteMemoryStore(prisma, project(req, params.projectId), params.id),
    }),
    listEntries: async ({ req, params, query }) => ({
      status: 200,
      body: await listStoreEntries(prisma, project(req, params.projectId), params.id, query),
    }),
    putEntry: async ({ req, params, body }) => ({
      status: 200,
      body: await putStoreEntry(ctx, project(req, params.projectId), params.id, body),
    }),
    deleteEntry: async ({ req, params, query }) => ({
      status: 200,
      body: await deleteStoreEntry(prisma, project(req, params.projectId), params.id, query.key),
    }),
  });
}
