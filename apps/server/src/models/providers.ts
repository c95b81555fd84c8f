import type { LanguageModelV3 } from "@ai-sdk/provider";
import { LruCache } from "../lib/lru-cache.js";
import { ModelCallError } from "./model-errors.js";
import type { ModelSpec } from "./model-spec.js";
import { providerFetch } from "./provider-fetch.js";

interface ProviderEndpoint {
  readonly apiKey?: string;
  readonly baseURL?: string;
}

/** Provider credentials and endpoints, read once at startup. Never log this object. */
export interface ProviderSettings {
  readonly anthropic: ProviderEndpoint;
  readonly openai: ProviderEndpoint;
  readonly openaiCompatible: ProviderEndpoint;
}

type EnvLike = Readonly<Record<string, string | undefined>>;

function setting(env: EnvLike, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function endpoint(apiKey: string | undefined, baseURL: string | undefined): ProviderEndpoint {
  return Object.freeze({
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(baseURL !== undefined ? { baseURL } : {}),
  });
}

/**
 * Base URLs follow the AI SDK convention: they include the API version path
 * (e.g. `https://api.anthropic.com/v1`, `http://localhost:11434/v1`).
 */
export function readProviderSettings(env: EnvLike = process.env): ProviderSettings {
  return Object.freeze({
    anthropic: endpoint(setting(env, "ANTHROPIC_API_KEY"), setting(env, "ANTHROPIC_BASE_URL")),
    openai: endpoint(setting(env, "OPENAI_API_KEY"), setting(env, "OPENAI_BASE_URL")),
    openaiCompatible: endpoint(setting(env, "OPENAI_COMPATIBLE_API_KEY"), setting(env, "OPENAI_COMPATIBLE_BASE_URL")),
  });
}

const settingsByEnv = new WeakMap<EnvLike, ProviderSettings>();

/**
 * `readProviderSettings` once per configuration environment: settings are read at startup, and reading the process
 * environment on every request that checks a model costs more than the check.
 */
export function providerSettingsOf(env: EnvLike): ProviderSettings {
  let settings = settingsByEnv.get(env);
  if (!settings) {
    settings = readProviderSettings(env);
    settingsByEnv.set(env, settings);
  }
  return settings;
}

/** Null when the model can be called with these settings, otherwise a reason fit for a user. */
export function checkModelAvailable(spec: Pick<ModelSpec, "provider">, settings: ProviderSettings): string | null {
  switch (spec.provider) {
    case "builtin":
      return null;
    case "anthropic":
      return settings.anthropic.apiKey ? null : 'Provider "anthropic" is not configured: set ANTHROPIC_API_KEY';
    case "openai":
      return settings.openai.apiKey ? null : 'Provider "openai" is not configured: set OPENAI_API_KEY';
    case "openai-compatible":
      return settings.openaiCompatible.baseURL
        ? null
        : 'Provider "openai-compatible" is not configured: set OPENAI_COMPATIBLE_BASE_URL';
  }
}

type ProviderFactory = (modelId: string) => LanguageModelV3;

interface Providers {
  factories: Map<ModelSpec["provider"], ProviderFactory>;
  /**
   * Model objects are stateless and reusable; building one compiles its response schemas (~7 % of a turn's CPU), so
   * each provider/model pair is built once (bounded: model ids come from users' configurations).
   */
  models: LruCache<string, LanguageModelV3>;
}

// Keyed by the settings object so that tests with their own settings get their own providers.
const providerCache = new WeakMap<ProviderSettings, Providers>();

/** Each provider's package is imported when a model of it is first called: a process pays only for those it uses. */
async function buildProvider(provider: ModelSpec["provider"], settings: ProviderSettings): Promise<ProviderFactory> {
  switch (provider) {
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      const anthropic = createAnthropic({ ...settings.anthropic, fetch: providerFetch });
      return (modelId) => anthropic(modelId);
    }
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      const openai = createOpenAI({ ...settings.openai, fetch: providerFetch });
      return (modelId) => openai(modelId);
    }
    case "openai-compatible": {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
      const compatible = createOpenAICompatible({
        name: "openai-compatible",
        baseURL: settings.openaiCompatible.baseURL ?? "",
        ...(settings.openaiCompatible.apiKey !== undefined ? { apiKey: settings.openaiCompatible.apiKey } : {}),
        includeUsage: true,
        fetch: providerFetch,
      });
      return (modelId) => compatible.chatModel(modelId);
    }
    case "builtin":
      throw new Error("builtin models are not AI SDK models");
  }
}

/**
 * The AI SDK language model for a provider-backed spec. Throws `ModelCallError("model.unavailable")`
 * when the provider lacks configuration, and a plain Error for `builtin` (handled without the AI SDK).
 */
export async function createLanguageModel(spec: ModelSpec, settings: ProviderSettings): Promise<LanguageModelV3> {
  const unavailable = checkModelAvailable(spec, settings);
  if (unavailable) throw new ModelCallError("model.unavailable", unavailable);
  let providers = providerCache.get(settings);
  if (!providers) {
    providers = { factories: new Map(), models: new LruCache({ maxEntries: 256, maxWeight: 256 }) };
    providerCache.set(settings, providers);
  }
  const key = `${spec.provider}/${spec.modelId}`;
  const cached = providers.models.get(key);
  if (cached) return cached;
  let factory = providers.factories.get(spec.provider);
  if (!factory) {
    factory = await buildProvider(spec.provider, settings);
    providers.factories.set(spec.provider, factory);
  }
  const model = factory(spec.modelId);
  providers.models.set(key, model);
  return model;
}
