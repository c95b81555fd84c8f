import {
  BUILTIN_TOOLS,
  type BuiltinTool,
  type BuiltinToolName,
  type CatalogueEmbeddingModel,
  type CatalogueModel,
  MODEL_PROVIDERS,
} from "@agent-platform/contract";
import {
  checkModelAvailable,
  DEFAULT_EMBEDDING_MODEL,
  KNOWN_EMBEDDING_MODELS,
  type ModelCatalogue,
  type ModelProvider,
  type ProviderSettings,
} from "../models/index.js";

const NO_CAPABILITIES = { tools: false, images: false, reasoning: false, promptCaching: false };

/** The catalogue as the models route lists it: by provider (in `MODEL_PROVIDERS` order), then id. */
export function listCatalogueModels(catalogue: ModelCatalogue, settings: ProviderSettings): CatalogueModel[] {
  const models: CatalogueModel[] = [];
  for (const [id, info] of catalogue.list()) {
    const provider = id.slice(0, id.indexOf("/")) as ModelProvider;
    if (!MODEL_PROVIDERS.includes(provider)) continue;
    const unavailableReason = checkModelAvailable({ provider }, settings);
    models.push({
      id,
      provider,
      available: unavailableReason === null,
      unavailableReason,
      contextWindow: info.contextWindow ?? null,
      maxOutputTokens: info.maxOutputTokens ?? null,
      pricing: info.pricing ?? null,
      capabilities: { ...NO_CAPABILITIES, ...info.capabilities },
    });
  }
  const order = (m: CatalogueModel) => MODEL_PROVIDERS.indexOf(m.provider);
  return models.sort((a, b) => order(a) - order(b));
}

/** The embedding models the platform knows, as the route lists them: by provider (`MODEL_PROVIDERS` order), then id. */
export function listEmbeddingModels(settings: ProviderSettings): CatalogueEmbeddingModel[] {
  const models = Object.entries(KNOWN_EMBEDDING_MODELS).map(([id, info]): CatalogueEmbeddingModel => {
    const provider = id.slice(0, id.indexOf("/")) as ModelProvider;
    const unavailableReason = checkModelAvailable({ provider }, settings);
    return {
      id,
      provider,
      available: unavailableReason === null,
      unavailableReason,
      dimensions: info.dimensions,
      shortenable: info.shortenable,
      maxInputTokens: info.maxInputTokens,
      pricing: info.pricePerMillionTokens === undefined ? null : { input: info.pricePerMillionTokens },
      isDefault: id === DEFAULT_EMBEDDING_MODEL,
    };
  });
  const order = (m: CatalogueEmbeddingModel) => MODEL_PROVIDERS.indexOf(m.provider);
  return models.sort((a, b) => order(a) - order(b) || a.id.localeCompare(b.id));
}

export function listBuiltinTools(): BuiltinTool[] {
  return Object.entries(BUILTIN_TOOLS).map(([name, tool]) => ({
    name: name as BuiltinToolName,
    description: tool.description,
    readOnly: tool.readOnly,
  }));
}
