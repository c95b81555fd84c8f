import { z } from "zod";
import { Description, idOf, MetadataSchema, Name, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import {
  EmbeddingModelSchema,
  EmbeddingStateSchema,
  FoundBySchema,
  RetrieversReportSchema,
  SearchModeSchema,
} from "./embedding-model.js";
import { NameFilterQuery, PathId, ProjectItemParams, ProjectParams, utf8Bytes } from "./shared.js";

const ChunkingSchema = z
  .object({
    maxTokens: z
      .number()
      .int()
      .min(LIMITS.knowledgeChunkTokensMin)
      .max(LIMITS.knowledgeChunkTokensMax)
      .default(LIMITS.knowledgeChunkTokensDefault)
      .describe("Longest passage, in tokens of about 4 characters"),
    overlapTokens: z
      .number()
      .int()
      .min(0)
      .max(LIMITS.knowledgeChunkTokensMax / 2)
      .default(LIMITS.knowledgeChunkOverlapDefault)
      .describe("Text a passage repeats from the one before it; at most half of `maxTokens`"),
  })
  .strict()
  .refine((c) => c.overlapTokens <= c.maxTokens / 2, {
    message: "overlapTokens must not exceed half of maxTokens",
    path: ["overlapTokens"],
  })
  .describe("How documents are split into passages (fixed when the base is created)");

export const KnowledgeBaseSchema = z
  .object({
    id: idOf("kb"),
    projectId: idOf("proj"),
    name: z.string(),
    description: z.string().nullable(),
    documentCount: z.number().int(),
    embeddingModel: EmbeddingModelSchema.describe("The model new vectors are computed with"),
    embedding: EmbeddingStateSchema,
    chunking: z.object({ maxTokens: z.number().int(), overlapTokens: z.number().int() }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("Knowledge base: documents split into passages that agents search by words and by meaning");

export const CreateKnowledgeBaseSchema = z
  .object({
    name: Name,
    description: Description.optional(),
    embeddingModel: EmbeddingModelSchema.optional().describe("Default `builtin/hash-ngrams` (offline, no key)"),
    chunking: ChunkingSchema.optional(),
  })
  .strict();

export const UpdateKnowledgeBaseSchema = z
  .object({
    name: Name.optional(),
    description: Description.nullable().optional(),
    embeddingModel: EmbeddingModelSchema.optional().describe(
      "A new model re-embeds every passage in the background; searches use the previous vectors until it is done",
    ),
  })
  .strict();

export const KnowledgeDocumentSummarySchema = z
  .object({
    id: idOf("kbdoc"),
    knowledgeBaseId: idOf("kb"),
    title: z.string(),
    metadata: z.record(z.string()),
    bytes: z.number().int().describe("UTF-8 size of `content`"),
    contentType: z.enum(["text", "markdown", "html", "pdf"]),
    status: z
      .enum(["pending", "ready", "failed"])
      .describe(
        "`pending`: searchable by its words, its passages waiting for vectors; `ready`: searchable by meaning too; " +
          "`failed`: embedding gave up (`error`); still searchable by its words",
      ),
    chunkCount: z.number().int().describe("Passages the document was split into"),
    embeddedChunks: z.number().int().describe("Passages with a vector of the base's `embeddingModel`"),
    error: z.string().nullable(),
    embeddingUsage: z
      .object({ inputTokens: z.number().int(), costUsd: z.number() })
      .describe("What embedding this document has cost (every model it was embedded with)"),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("Knowledge document without its text (lists)");

export const KnowledgeDocumentSchema = KnowledgeDocumentSummarySchema.extend({
  content: z.string().describe("The stored text (for `html` and `pdf`, the text they show, as Markdown)"),
}).describe("Knowledge document");

export const CreateKnowledgeDocumentSchema = z
  .object({
    title: z.string().trim().min(1).max(LIMITS.knowledgeDocumentTitle),
    content: z
      .string()
      .min(1)
      .max(LIMITS.knowledgePdfBase64Length)
      .describe("The text (at most 1 MiB of UTF-8); for `pdf`, the file in base64 (at most 7.5 MiB)"),
    contentType: z
      .enum(["text", "markdown", "html", "pdf"])
      .default("text")
      .describe(
        "`markdown`: split along its headings; `html`: stored as the text it shows (headings kept), then split " +
          "like Markdown; `pdf`: stored as the text of its pages (`## Page n` headings), then split like Markdown; " +
          "`text`: split along paragraphs",
      ),
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .superRefine((doc, ctx) => {
    if (doc.contentType === "pdf") {
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(doc.content)) {
        ctx.addIssue({ code: "custom", path: ["content"], message: "a PDF file in base64" });
      }
    } else if (utf8Bytes(doc.content) > LIMITS.knowledgeDocumentBytes) {
      ctx.addIssue({
        code: "custom",
        path: ["content"],
        message: `at most ${LIMITS.knowledgeDocumentBytes} bytes (UTF-8)`,
      });
    }
  });

export const KnowledgeChunkSchema = z
  .object({
    id: idOf("kbchunk"),
    documentId: idOf("kbdoc"),
    position: z.number().int().describe("0 for the document's first passage"),
    headingPath: z.array(z.string()).describe("Headings above the passage, outermost first"),
    startOffset: z.number().int().describe("First character of the passage in the document's `content`"),
    endOffset: z.number().int().describe("Character after the passage's last (`content` code points)"),
    text: z.string(),
  })
  .describe("A passage of a document");

export const KnowledgeSearchFilterSchema = z
  .object({
    metadata: MetadataSchema.optional().describe("Only documents whose metadata has every one of these values"),
    documentIds: z.array(z.string().min(1).max(64)).min(1).max(LIMITS.knowledgeFilterDocuments).optional(),
  })
  .strict();

export const KnowledgeSearchSchema = z
  .object({
    query: z
      .string()
      .trim()
      .min(1)
      .max(LIMITS.knowledgeQueryLength)
      .describe('A question or words; the full-text side reads web-search syntax (`"phrase"`, `or`, `-word`)'),
    limit: z.number().int().min(1).max(LIMITS.knowledgeSearchResults).default(10),
    mode: SearchModeSchema.default("hybrid"),
    filter: KnowledgeSearchFilterSchema.optional(),
  })
  .strict();

export const KnowledgeSearchHitSchema = z.object({
  chunkId: idOf("kbchunk"),
  documentId: idOf("kbdoc"),
  knowledgeBaseId: idOf("kb"),
  title: z.string(),
  headingPath: z.array(z.string()),
  position: z.number().int(),
  startOffset: z.number().int(),
  endOffset: z.number().int(),
  text: z.string().describe("The passage"),
  score: z
    .number()
    .describe("Relevance (higher is better; fused rank score in `hybrid`); comparable only within one search"),
  foundBy: FoundBySchema,
  metadata: z.record(z.string()),
});

export const KnowledgeSearchResultSchema = z.object({
  data: z.array(KnowledgeSearchHitSchema),
  mode: SearchModeSchema,
  retrievers: RetrieversReportSchema,
});

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
    update: {
      method: "PATCH",
      path: "/v1/projects/:projectId/knowledge-bases/:id",
      pathParams: ProjectItemParams,
      body: UpdateKnowledgeBaseSchema,
      responses: { 200: KnowledgeBaseSchema },
      summary: "Update a knowledge base (a new `embeddingModel` re-embeds it in the background)",
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
    listChunks: {
      method: "GET",
      path: "/v1/projects/:projectId/knowledge-bases/:id/documents/:documentId/chunks",
      pathParams: DocumentParams,
      query: PageQuerySchema,
      responses: { 200: cursorPage(KnowledgeChunkSchema) },
      summary: "List a document's passages in order",
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
      summary: "Search the base's passages by words and meaning, best first (what the `knowledge_search` tool sees)",
    },
  },
  routerOptions,
);

export type KnowledgeBase = z.infer<typeof KnowledgeBaseSchema>;
export type KnowledgeDocument = z.infer<typeof KnowledgeDocumentSchema>;
export type KnowledgeDocumentSummary = z.infer<typeof KnowledgeDocumentSummarySchema>;
export type KnowledgeSearchHit = z.infer<typeof KnowledgeSearchHitSchema>;
export type CreateKnowledgeDocument = z.infer<typeof CreateKnowledgeDocumentSchema>;
export type CreateKnowledgeBase = z.infer<typeof CreateKnowledgeBaseSchema>;
export type UpdateKnowledgeBase = z.infer<typeof UpdateKnowledgeBaseSchema>;
export type KnowledgeChunk = z.infer<typeof KnowledgeChunkSchema>;
export type KnowledgeSearch = z.infer<typeof KnowledgeSearchSchema>;
export type KnowledgeSearchFilter = z.infer<typeof KnowledgeSearchFilterSchema>;
export type KnowledgeSearchResult = z.infer<typeof KnowledgeSearchResultSchema>;
