import { knowledgeBasesContract } from "@agent-platform/contract";
import { initServer } from "@ts-rest/express";
import type { AppContext } from "../context.js";
import { projectScope } from "../http/auth-context.js";
import {
  createKnowledgeBase,
  deleteKnowledgeBase,
  getKnowledgeBase,
  knowledgeBaseOf,
  listKnowledgeBases,
  updateKnowledgeBase,
} from "./knowledge-bases-service.js";
import {
  createDocument,
  deleteDocument,
  getDocument,
  listChunks,
  listDocuments,
} from "./knowledge-documents-service.js";
import { searchKnowledge } from "./search-knowledge.js";
import { vectorBackendOf } from "./vector-backend.js";

const s = initServer();

export function knowledgeBaseRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  const project = (req: Parameters<typeof projectScope>[0], projectId: string) =>
    projectScope(req, projectId).projectId;
  // Detected at start, so that the log says which vector search this process uses.
  void vectorBackendOf(ctx);
  return s.router(knowledgeBasesContract, {
    create: async ({ req, params, body }) => {
      const auth = projectScope(req, params.projectId);
      return { status: 201, body: await createKnowledgeBase(ctx, auth, body) };
    },
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listKnowledgeBases(prisma, project(req, params.projectId), query),
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getKnowledgeBase(prisma, project(req, params.projectId), params.id),
    }),
    update: async ({ req, params, body }) => ({
      status: 200,
      body: await updateKnowledgeBase(ctx, project(req, params.projectId), params.id, body),
    }),
    delete: async ({ req, params }) => ({
      status: 200,
      body: await deleteKnowledgeBase(ctx, project(req, params.projectId), params.id),
    }),
    createDocument: async ({ req, params, body }) => ({
      status: 201,
      body: await createDocument(ctx, project(req, params.projectId), params.id, body),
    }),
    listDocuments: async ({ req, params, query }) => ({
      status: 200,
      body: await listDocuments(prisma, project(req, params.projectId), params.id, query),
    }),
    getDocument: async ({ req, params }) => ({
      status: 200,
      body: await getDocument(prisma, project(req, params.projectId), params.id, params.documentId),
    }),
    listChunks: async ({ req, params, query }) => ({
      status: 200,
      body: await listChunks(prisma, project(req, params.projectId), params.id, params.documentId, query),
    }),
    deleteDocument: async ({ req, params }) => ({
      status: 200,
      body: await deleteDocument(ctx, project(req, params.projectId), params.id, params.documentId),
    }),
    search: async ({ req, params, body }) => {
      const projectId = project(req, params.projectId);
      await knowledgeBaseOf(prisma, projectId, params.id);
      return {
        status: 200,
        body: await searchKnowledge(ctx, {
          projectId,
          knowledgeBaseIds: [params.id],
          query: body.query,
          limit: body.limit,
          mode: body.mode,
          ...(body.filter ? { filter: body.filter } : {}),
        }),
      };
    },
  });
}
