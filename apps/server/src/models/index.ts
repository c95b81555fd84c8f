export { BUILTIN_EMBEDDING_DIMENSIONS, builtinEmbedding } from "./builtin-embedder.js";
export { type CallModelOptions, callModel, type ModelStreamDelta } from "./call-model.js";
export {
  costOf,
  type ModelCapabilities,
  ModelCatalogue,
  type ModelInfo,
  modelCatalogueOf,
  type PricedUsage,
  type ResolvedModel,
} from "./catalogue.js";
export { type ResolvedEmbeddingModel, resolveEmbeddingModel } from "./check-embedding-model.js";
export {
  type EmbedTextsOptions,
  type EmbedTextsResult,
  embeddingCostUsd,
  embeddingModelInfo,
  embedTexts,
  estimateEmbeddingTokens,
} from "./embed-texts.js";
export { type EmbeddingModelInfo, KNOWN_EMBEDDING_MODELS } from "./embedding-catalogue.js";
export {
  canonicalEmbeddingReference,
  DEFAULT_EMBEDDING_MODEL,
  EMBEDDING_PROVIDERS,
  type EmbeddingModelReference,
  type EmbeddingSpec,
  embeddingModelName,
  embeddingSpace,
  parseEmbeddingSpec,
} from "./embedding-spec.js";
export {
  type ConversationMedia,
  type ConversationMessage,
  type ConversationToolCall,
  type ConversationToolResult,
  lastUserText,
  toModelMessages,
} from "./messages.js";
export { ModelCallAborted, ModelCallError, type ModelCallErrorCode } from "./model-errors.js";
export type {
  ModelCallResult,
  ModelFinishReason,
  ModelReasoningPart,
  ModelToolCall,
  ModelToolDefinition,
  ModelUsage,
} from "./model-result.js";
export {
  formatModelSpec,
  MODEL_PROVIDERS,
  type ModelPricing,
  type ModelProvider,
  type ModelReference,
  type ModelSpec,
  type ModelSpecError,
  type ModelSpecErrorCode,
  type ParseModelSpecResult,
  parseModelSpec,
} from "./model-spec.js";
export {
  checkModelAvailable,
  createLanguageModel,
  type ProviderSettings,
  providerSettingsOf,
  readProviderSettings,
} from "./providers.js";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.js";
export { acceptsToolResultImage } from "./tool-result-media.js";
export { type UsageAccounting, usageAccounting } from "./usage-accounting.js";
