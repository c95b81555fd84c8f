import { z } from "zod";
import { Description, idOf, Timestamp } from "../common/fields.js";
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
import { boundedText, NameFilterQuery, ProjectItemParams, ProjectParams, referenceableName } from "./shared.js";

const KEY_FORM = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** A path-like key: segments of letters, digits, `.`, `_`, `-` separated by `/` (no empty, `.` or `..` segment). */
export const MemoryKeySchema = z
  .string()
  .min(1)
  .max(LIMITS.memoryKeyLength)
  .regex(KEY_FORM, "segments of letters, digits, `.`, `_`, `-` separated by `/` (like `notes/todo.md`)")
  .refine((key) => key.split("/").every((segment) => segment !== "." && segment !== ".."), {
    message: "`.` and `..` are not allowed as segments",
  })
  .describe("Path-like key, e.g. `notes/todo.md`");

export const MemoryStoreSchema = z
  .object({
    id: idOf("ms"),
    projectId: idOf("proj"),
    name: z.string(),
    description: z.string().nullable(),
    entryCount: z.number().int(),
    embeddingModel: EmbeddingModelSchema.describe("The model entries are embedded with (searched by meaning)"),
    embedding: EmbeddingStateSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("Memory store: durable notes an agent reads and writes across sessions");

export const CreateMemoryStoreSchema = z
  .object({
    name: referenceableName("ms").describe("Unique in the project; usable instead of the id in references"),
    description: Description.optional(),
    embeddingModel: EmbeddingModelSchema.optional().describe("Default `builtin/hash-ngrams` (offline, no key)"),
  })
  .strict();

export const UpdateMemoryStoreSchema = z
  .object({
    description: Description.nullable().optional(),
    embeddingModel: EmbeddingModelSchema.optional().describe(
      "A new model re-embeds every entry in the background; searches use the previous vectors until it is done",
    ),
  })
  .strict();

export const MemorySearchSchema = z
  .object({
    query: z.string().trim().min(1).max(LIMITS.knowledgeQueryLength),
    limit: z.number().int().min(1).max(LIMITS.memorySearchResults).default(10),
    mode: SearchModeSchema.default("hybrid"),
  })
  .strict();

export const MemorySearchHitSchema = z.object({
  key: z.string(),
  snippet: z.string().describe("Up to ~240 characters of the entry"),
  bytes: z.number().int(),
  score: z.number().describe("Relevance (higher is better); comparable only within one search"),
  foundBy: FoundBySchema,
  updatedAt: Timestamp,
});

export const MemorySearchResultSchema = z.object({
  data: z.array(MemorySearchHitSchema),
  mode: SearchModeSchema,
  retrievers: RetrieversReportSchema,
});

export const MemoryEntrySchema = z
  .object({
    key: z.string(),
    content: z.string(),
    bytes: z.number().int().describe("UTF-8 size of `content`"),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("One entry of a memory store");

export const PutMemoryEntrySchema = z
  .object({
    key: MemoryKeySchema,
    content: boundedText(LIMITS.memoryEntryBytes),
  })
  .strict();

export const MemoryEntriesQuery = PageQuerySchema.extend({
  prefix: z.string().min(1).max(LIMITS.memoryKeyLength).optional().describe("Only keys starting with this text"),
});

export const MemoryEntryKeyQuery = z.object({ key: MemoryKeySchema });

export const memoryStoresContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/projects/:projectId/memory-stores",
      pathParams: ProjectParams,
      body: CreateMemoryStoreSchema,
      responses: { 201: MemoryStoreSchema },
      summary: "Create a memory store",
    },
    list: {
      method: "GET",
      path: "/v1/projects/:projectId/memory-stores",
      pathParams: ProjectParams,
      query: NameFilterQuery,
      responses: { 200: cursorPage(MemoryStoreSchema) },
      summary: "List memory stores, newest first",
    },
    get: {
      method: "GET",
      path: "/v1/projects/:projectId/memory-stores/:id",
      pathParams: ProjectItemParams,
      responses: { 200: MemoryStoreSchema },
      summary: "Get a memory store",
    },
    update: {
      method: "PATCH",
      path: "/v1/projects/:projectId/memory-stores/:id",
      pathParams: ProjectItemParams,
      body: UpdateMemoryStoreSchema,
      responses: { 200: MemoryStoreSchema },
      summary: "Update a memory store (a new `embeddingModel` re-embeds it in the background)",
    },
    search: {
      method: "POST",
      path: "/v1/projects/:projectId/memory-stores/:id/search",
      pathParams: ProjectItemParams,
      body: MemorySearchSchema,
      responses: { 200: MemorySearchResultSchema },
      summary: "Search a store's entries by words and meaning, best first (what the `memory_search` tool sees)",
    },
    delete: {
      method: "DELETE",
      path: "/v1/projects/:projectId/memory-stores/:id",
      pathParams: ProjectItemParams,
      responses: { 200: MemoryStoreSchema },
      summary: "Delete a memory store and its entries; returns the deleted store",
    },
    listEntries: {
      method: "GET",
      path: "/v1/projects/:projectId/memory-stores/:id/entries",
      pathParams: ProjectItemParams,
      query: MemoryEntriesQuery,
      responses: { 200: cursorPage(MemoryEntrySchema) },
      summary: "List a store's entries in key order",
    },
    putEntry: {
      method: "PUT",
      path: "/v1/projects/:projectId/memory-stores/:id/entries",
      pathParams: ProjectItemParams,
      body: PutMemoryEntrySchema,
      responses: { 200: MemoryEntrySchema },
      summary: "Create or replace the entry with this key",
    },
    deleteEntry: {
      method: "DELETE",
      path: "/v1/projects/:projectId/memory-stores/:id/entries",
      pathParams: ProjectItemParams,
      query: MemoryEntryKeyQuery,
      responses: { 200: MemoryEntrySchema },
      summary: "Delete the entry with this key; returns the deleted entry",
    },
  },
  routerOptions,
);

export type MemoryStore = z.infer<typeof MemoryStoreSchema>;
export type MemoryEntry = z.infer<typeof MemoryEntrySchema>;
export type CreateMemoryStore = z.infer<typeof CreateMemoryStoreSchema>;
export type UpdateMemoryStore = z.infer<typeof UpdateMemoryStoreSchema>;
export type MemorySearch = z.infer<typeof MemorySearchSchema>;
export type MemorySearchHitRecord = z.infer<typeof MemorySearchHitSchema>;
export type MemorySearchResult = z.infer<typeof MemorySearchResultSchema>;
