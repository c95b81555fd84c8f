import { z } from "zod";

/** An embedding model as a knowledge base or memory store names it (validated further by the server). */
export const EmbeddingModelSchema = z
  .union([
    z.string().min(3).max(200),
    z
      .object({
        id: z.string().min(3).max(200).describe("`<provider>/<model-id>`"),
        dimensions: z
          .number()
          .int()
          .min(8)
          .max(16_000)
          .optional()
          .describe("Shorter vectors, for models that can shorten them (OpenAI's `text-embedding-3-*`)"),
        pricing: z
          .object({ input: z.number().min(0).max(10_000).describe("US dollars per million input tokens") })
          .strict()
          .optional(),
        maxInputTokens: z.number().int().min(16).max(10_000_000).optional(),
      })
      .strict(),
  ])
  .describe(
    "`<provider>/<model-id>`: `builtin/hash-ngrams` (offline, the default), `openai/text-embedding-3-small`, " +
      "`openai/text-embedding-3-large`, `openai-compatible/<id>` (Ollama, vLLM, TEI, LiteLLM…); or " +
      "`{ id, dimensions?, pricing?, maxInputTokens? }`",
  );

export const EmbeddingStateSchema = z
  .object({
    status: z
      .enum(["ready", "embedding", "reembedding"])
      .describe(
        "`ready`: every passage has a vector of `embeddingModel`; `embedding`: some are being computed; " +
          "`reembedding`: the model changed and searches use `servingModel` until every passage has a new vector",
      ),
    servingModel: EmbeddingModelSchema.describe("The model searches embed the query with"),
  })
  .describe("Where the vectors stand");

export const SearchModeSchema = z
  .enum(["hybrid", "semantic", "fulltext"])
  .describe(
    "`hybrid` (default): full-text and vector results fused by reciprocal rank; `semantic`: vectors only; " +
      "`fulltext`: PostgreSQL full-text search only",
  );

export const FoundBySchema = z
  .object({
    fulltext: z.object({ rank: z.number().int(), score: z.number() }).optional(),
    semantic: z.object({ rank: z.number().int(), score: z.number() }).optional(),
  })
  .describe("Which retriever found the hit: its rank (1 = best) and its own score (ts_rank, cosine similarity)");

export const RetrieversReportSchema = z
  .object({
    fulltext: z.boolean().describe("Whether full-text search ran"),
    semantic: z
      .object({
        model: z.string().nullable(),
        backend: z.enum(["pgvector", "exact"]).nullable(),
        error: z
          .string()
          .optional()
          .describe("Why vectors were left out of a hybrid search (the query embedding failed)"),
      })
      .nullable(),
  })
  .describe("What ran");

export type EmbeddingModelRef = z.infer<typeof EmbeddingModelSchema>;
export type EmbeddingState = z.infer<typeof EmbeddingStateSchema>;
export type SearchMode = z.infer<typeof SearchModeSchema>;
export type FoundBy = z.infer<typeof FoundBySchema>;
export type RetrieversReport = z.infer<typeof RetrieversReportSchema>;
