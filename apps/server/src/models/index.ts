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
export { learnedContextWindow, rememberContextWindow } from "./learned-windows.js";
export {
  type ConversationImage,
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
export {
  type ImageTakingModel,
  type ToolResultImagePlacement,
  toolResultImagePlacement,
} from "./tool-result-media.js";
export { type UsageAccounting, usageAccounting } from "./usage-accounting.js";
