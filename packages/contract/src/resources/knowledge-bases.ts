import { z } from "zod";
import { Description, idOf, MetadataSchema, Name, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import { boundedText, NameFilterQuery, PathId, ProjectItemParams, ProjectParams } from "./shared.js";

export const KnowledgeBaseSchema = z
  .object({
    id: idOf("kb"),
    projectId: idOf("proj"),
    name: z.string(),
    description: z.string().nullable(),
    documentCount: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("Knowledge base: documents an agent searches with full-text search");

export const CreateKnowledgeBaseSchema = z.object({ name: Name, description: Description.optional() }).strict();

export const KnowledgeDocumentSummarySchema = z
  .object({
    id: idOf("kbdoc"),
    knowledgeBaseId: idOf("kb"),
    title: z.string(),
    metadata: z.record(z.string()),
    bytes: z.number().int().describe("UTF-8 size of `content`"),
    createdAt: Timestamp,
  })
  .describe("Knowledge document without its text (lists)");

export const KnowledgeDocumentSchema = KnowledgeDocumentSummarySchema.extend({ content: z.string() }).describe(
  "Knowledge document",
);

export const CreateKnowledgeDocumentSchema = z
  .object({
    title: z.string().trim().min(1).max(LIMITS.knowledgeDocumentTitle),
    content: boundedText(LIMITS.knowledgeDocumentBytes, 1),
    metadata: MetadataSchema.optional(),
  })
  .strict();

export const KnowledgeSearchSchema = z
  .object({
    query: z.string().trim().min(1).max(LIMITS.knowledgeQueryLength).describe("Words to find; web-search syntax"),
    limit: z.number().int().min(1).max(LIMITS.knowledgeSearchResults).default(10),
  })
  .strict();

export const KnowledgeSearchHitSchema = z.object({
  documentId: idOf("kbdoc"),
  knowledgeBaseId: idOf("kb"),
  title: z.string(),
  snippet: z.string().describe("Best passages, matched words between `**`"),
  score: z.number().describe("Relevance (higher is better); comparable only within one search"),
  metadata: z.record(z.string()),
});

export const KnowledgeSearchResultSchema = z.object({ data: z.array(KnowledgeSearchHitSchema) });

const DocumentParams = z.object({ projectId: PathId, id: PathId, documentId: PathId });

export const knowledgeBasesContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/projects/:projectId/knowledge-bases",
      pathParams: ProjectParams,
      body: CreateKnowledgeBaseSchema,
      responses: { 201: KnowledgeBaseSchema },
      summary: "Create a knowledge base",
    },
    list: {
      method: "GET",
      path: "/v1/projects/:projectId/knowledge-bases",
      pathParams: ProjectParams,
      query: NameFilterQuery,
      responses: { 200: cursorPage(KnowledgeBaseSchema) },
      summary: "List knowledge bases, newest first",
    },
    get: {
      method: "GET",
      path: "/v1/projects/:projectId/knowledge-bases/:id",
      pathParams: ProjectItemParams,
      responses: { 200: KnowledgeBaseSchema },
      summary: "Get a knowledge base",
    },
    delete: {
      method: "DELETE",
      path: "/v1/projects/:projectId/knowledge-bases/:id",
      pathParams: ProjectItemParams,
      responses: { 200: KnowledgeBaseSchema },
      summary: "Delete a knowledge base and its documents; returns the deleted base",
    },
    createDocument: {
      method: "POST",
      path: "/v1/projects/:projectId/knowledge-bases/:id/documents",
      pathParams: ProjectItemParams,
      body: CreateKnowledgeDocumentSchema,
      responses: { 201: KnowledgeDocumentSchema },
      summary: "Add a document",
    },
    listDocuments: {
      method: "GET",
      path: "/v1/projects/:projectId/knowledge-bases/:id/documents",
      pathParams: ProjectItemParams,
      query: PageQuerySchema,
      responses: { 200: cursorPage(KnowledgeDocumentSummarySchema) },
      summary: "List documents (without their text), newest first",
    },
    getDocument: {
      method: "GET",
      path: "/v1/projects/:projectId/knowledge-bases/:id/documents/:documentId",
      pathParams: DocumentParams,
      responses: { 200: KnowledgeDocumentSchema },
      summary: "Get a document with its text",
    },
    deleteDocument: {
      method: "DELETE",
      path: "/v1/projects/:projectId/knowledge-bases/:id/documents/:documentId",
      pathParams: DocumentParams,
      responses: { 200: KnowledgeDocumentSummarySchema },
      summary: "Delete a document; returns the deleted document (without its text)",
    },
    search: {
      method: "POST",
      path: "/v1/projects/:projectId/knowledge-bases/:id/search",
      pathParams: ProjectItemParams,
      body: KnowledgeSearchSchema,
      responses: { 200: KnowledgeSearchResultSchema },
      summary: "Full-text search of the base, best match first (what the `knowledge_search` tool sees)",
    },
  },
  routerOptions,
);

export type KnowledgeBase = z.infer<typeof KnowledgeBaseSchema>;
export type KnowledgeDocument = z.infer<typeof KnowledgeDocumentSchema>;
export type KnowledgeDocumentSummary = z.infer<typeof KnowledgeDocumentSummarySchema>;
export type KnowledgeSearchHit = z.infer<typeof KnowledgeSearchHitSchema>;
export type CreateKnowledgeDocument = z.infer<typeof CreateKnowledgeDocumentSchema>;
