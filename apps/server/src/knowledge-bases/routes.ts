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
} from "./knowledge-bases-service.js";
import { createDocument, deleteDocument, getDocument, listDocuments } from "./knowledge-documents-service.js";
import { searchKnowledge } from "./search-knowledge.js";

const s = initServer();

export function knowledgeBaseRoutes(ctx: AppContext) {
  const prisma = ctx.db.prisma;
  const project = (req: Parameters<typeof projectScope>[0], projectId: string) =>
    projectScope(req, projectId).projectId;
  return s.router(knowledgeBasesContract, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createKnowledgeBase(prisma, project(req, params.projectId), body),
    }),
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listKnowledgeBases(prisma, project(req, params.projectId), query),
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getKnowledgeBase(prisma, project(req, params.projectId), params.id),
    }),
    delete: async ({ req, params }) => ({
      status: 200,
      body: await deleteKnowledgeBase(prisma, project(req, params.projectId), params.id),
    }),
    createDocument: async ({ req, params, body }) => ({
      status: 201,
      body: await createDocument(prisma, project(req, params.projectId), params.id, body),
    }),
    listDocuments: async ({ req, params, query }) => ({
      status: 200,
      body: await listDocuments(prisma, project(req, params.projectId), params.id, query),
    }),
    getDocument: async ({ req, params }) => ({
      status: 200,
      body: await getDocument(prisma, project(req, params.projectId), params.id, params.documentId),
    }),
    deleteDocument: async ({ req, params }) => ({
      status: 200,
      body: await deleteDocument(prisma, project(req, params.projectId), params.id, params.documentId),
    }),
    search: async ({ req, params, body }) => {
      const projectId = project(req, params.projectId);
      await knowledgeBaseOf(prisma, projectId, params.id);
      return {
        status: 200,
        body: { data: await searchKnowledge(ctx.db.pool, projectId, [params.id], body.query, body.limit) },
      };
    },
  });
}
