/** What the platform knows of an embedding model. */
export interface EmbeddingModelInfo {
  /** Length of the vectors it returns by default. */
  dimensions: number;
  /** Whether the request may ask for shorter vectors (`dimensions`, OpenAI's text-embedding-3 models). */
  shortenable: boolean;
  /** Tokens accepted in one input (longer inputs are refused by the provider). */
  maxInputTokens: number;
  /** US dollars per million input tokens; absent when unknown (costs are then not estimated). */
  pricePerMillionTokens?: number;
}

/**
 * The embedding models the platform knows, keyed `<provider>/<model-id>`, from the providers' model pages and price
 * lists (November 2026). `openai-compatible` models (Ollama, vLLM, TEI, LiteLLM…) are the deployment's: their
 * dimensions are learned from the first answer and their price given in the base's `embeddingModel` object.
 */
export const KNOWN_EMBEDDING_MODELS: Readonly<Record<string, EmbeddingModelInfo>> = {
  "openai/text-embedding-3-small": {
    dimensions: 1536,
    shortenable: true,
    maxInputTokens: 8191,
    pricePerMillionTokens: 0.02,
  },
  "openai/text-embedding-3-large": {
    dimensions: 3072,
    shortenable: true,
    maxInputTokens: 8191,
    pricePerMillionTokens: 0.13,
  },
  "openai/text-embedding-ada-002": {
    dimensions: 1536,
    shortenable: false,
    maxInputTokens: 8191,
    pricePerMillionTokens: 0.1,
  },
  // Offline, deterministic and free: hashed words, word pairs and character trigrams (builtin-embedder.ts).
  "builtin/hash-ngrams": { dimensions: 512, shortenable: false, maxInputTokens: 1_000_000, pricePerMillionTokens: 0 },
};

/**
 * OpenAI's limits of one embeddings request: at most 2,048 inputs and 300,000 tokens across them
 * (https://platform.openai.com/docs/api-reference/embeddings/create). Batches stay under both.
 */
export const EMBEDDING_REQUEST_LIMITS = { maxInputs: 2048, maxTokens: 300_000 } as const;
