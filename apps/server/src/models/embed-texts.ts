import type { EmbeddingModelV3 } from "@ai-sdk/provider";
import { LruCache } from "../lib/lru-cache.js";
import { builtinEmbedding } from "./builtin-embedder.js";
import { classifyProviderError } from "./classify-provider-error.js";
import { EMBEDDING_REQUEST_LIMITS, type EmbeddingModelInfo, KNOWN_EMBEDDING_MODELS } from "./embedding-catalogue.js";
import { type EmbeddingSpec, embeddingModelName } from "./embedding-spec.js";
import { ModelCallAborted, ModelCallError, throwIfAborted } from "./model-errors.js";
import { providerFetch } from "./provider-fetch.js";
import { checkModelAvailable, type ProviderSettings } from "./providers.js";
import { type RetryPolicy, resolveRetryPolicy, retryDelayMs } from "./retry-policy.js";

export interface EmbedTextsOptions {
  spec: EmbeddingSpec;
  settings: ProviderSettings;
  texts: readonly string[];
  signal?: AbortSignal;
  retry?: Partial<RetryPolicy>;
}

export interface EmbedTextsResult {
  /** One unit-length vector per text, in order. */
  vectors: Float32Array[];
  dimensions: number;
  /** Input tokens the provider counted (estimated at ~4 characters a token when it says nothing). */
  inputTokens: number;
  /** Estimated US dollars, or null when the price is unknown. */
  costUsd: number | null;
}

/** The catalogue's entry of a spec, with what its reference overrides. */
export function embeddingModelInfo(spec: EmbeddingSpec): Partial<EmbeddingModelInfo> {
  const known = KNOWN_EMBEDDING_MODELS[embeddingModelName(spec)];
  return {
    ...known,
    ...(spec.dimensions !== undefined ? { dimensions: spec.dimensions } : {}),
    ...(spec.pricePerMillionTokens !== undefined ? { pricePerMillionTokens: spec.pricePerMillionTokens } : {}),
    ...(spec.maxInputTokens !== undefined ? { maxInputTokens: spec.maxInputTokens } : {}),
  };
}

/** About 4 characters a token: the estimate for reservations and batching (providers count exactly afterwards). */
export function estimateEmbeddingTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Estimated US dollars of `tokens` on the spec's model (null when its price is unknown), to the micro-dollar. */
export function embeddingCostUsd(spec: EmbeddingSpec, tokens: number): number | null {
  const price = embeddingModelInfo(spec).pricePerMillionTokens;
  return price === undefined ? null : Math.round(tokens * price) / 1_000_000;
}

const models = new WeakMap<ProviderSettings, LruCache<string, EmbeddingModelV3>>();

async function embeddingModel(spec: EmbeddingSpec, settings: ProviderSettings): Promise<EmbeddingModelV3> {
  const unavailable = checkModelAvailable({ provider: spec.provider }, settings);
  if (unavailable) throw new ModelCallError("model.unavailable", unavailable);
  let cache = models.get(settings);
  if (!cache) {
    cache = new LruCache({ maxEntries: 64, maxWeight: 64 });
    models.set(settings, cache);
  }
  const key = embeddingModelName(spec);
  const cached = cache.get(key);
  if (cached) return cached;
  let model: EmbeddingModelV3;
  if (spec.provider === "openai") {
    const { createOpenAI } = await import("@ai-sdk/openai");
    model = createOpenAI({ ...settings.openai, fetch: providerFetch }).embedding(spec.modelId);
  } else {
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    model = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: settings.openaiCompatible.baseURL ?? "",
      ...(settings.openaiCompatible.apiKey !== undefined ? { apiKey: settings.openaiCompatible.apiKey } : {}),
      fetch: providerFetch,
    }).embeddingModel(spec.modelId);
  }
  cache.set(key, model);
  return model;
}

function normalised(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  if (norm > 0 && Math.abs(norm - 1) > 1e-6) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  }
  return vector;
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelCallAborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelCallAborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Embeds texts with the spec's model: the builtin one in process, a provider's through the same settings, HTTP client
 * and retry policy as chat models (overload, 429 with its `Retry-After`, 5xx and network failures are retried). The
 * texts are sent in requests of at most 2,048 inputs and ~300,000 estimated tokens. Rejects with `ModelCallError`
 * (`model.unavailable`, `model.rate_limited`, `model.provider_error`) or `ModelCallAborted`.
 */
export async function embedTexts(options: EmbedTextsOptions): Promise<EmbedTextsResult> {
  throwIfAborted(options.signal);
  const { spec, texts } = options;
  if (spec.provider === "builtin") {
    const vectors = texts.map((text) => builtinEmbedding(text));
    const inputTokens = texts.reduce((n, text) => n + estimateEmbeddingTokens(text), 0);
    return { vectors, dimensions: vectors[0]?.length ?? 0, inputTokens, costUsd: 0 };
  }
  const model = await embeddingModel(spec, options.settings);
  const vectors: Float32Array[] = [];
  let inputTokens = 0;
  for (const batch of requestBatches(texts)) {
    const answer = await embedBatch(model, spec, batch, options);
    inputTokens += answer.usage?.tokens ?? batch.reduce((n, text) => n + estimateEmbeddingTokens(text), 0);
    if (answer.embeddings.length !== batch.length) {
      throw new ModelCallError(
        "model.provider_error",
        `Embedding provider answered ${answer.embeddings.length} vectors for ${batch.length} inputs`,
      );
    }
    for (const embedding of answer.embeddings) vectors.push(normalised(embedding));
  }
  const dimensions = vectors[0]?.length ?? 0;
  if (vectors.some((v) => v.length !== dimensions)) {
    throw new ModelCallError("model.provider_error", "Embedding provider answered vectors of different lengths");
  }
  return { vectors, dimensions, inputTokens, costUsd: embeddingCostUsd(spec, inputTokens) };
}

function* requestBatches(texts: readonly string[]): Generator<string[]> {
  let batch: string[] = [];
  let tokens = 0;
  for (const text of texts) {
    const t = estimateEmbeddingTokens(text);
    if (batch.length > 0 && (batch.length >= EMBEDDING_REQUEST_LIMITS.maxInputs || tokens + t > 250_000)) {
      yield batch;
      batch = [];
      tokens = 0;
    }
    batch.push(text);
    tokens += t;
  }
  if (batch.length > 0) yield batch;
}

async function embedBatch(
  model: EmbeddingModelV3,
  spec: EmbeddingSpec,
  values: string[],
  options: EmbedTextsOptions,
): Promise<Awaited<ReturnType<EmbeddingModelV3["doEmbed"]>>> {
  const policy = resolveRetryPolicy(options.retry);
  const providerOptions =
    spec.dimensions !== undefined
      ? { [spec.provider === "openai" ? "openai" : "openaiCompatible"]: { dimensions: spec.dimensions } }
      : undefined;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(options.signal);
    try {
      return await model.doEmbed({
        values,
        ...(options.signal ? { abortSignal: options.signal } : {}),
        ...(providerOptions ? { providerOptions } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw new ModelCallAborted();
      const failure = classifyProviderError(error);
      if (!failure.retryable || attempt >= policy.attempts) {
        const suffix = attempt > 1 ? ` (after ${attempt} attempts)` : "";
        const code = failure.code === "model.context_overflow" ? "model.provider_error" : failure.code;
        throw new ModelCallError(code, `${failure.message.replace(/^Model/, "Embedding model")}${suffix}`, {
          ...(failure.status !== undefined ? { status: failure.status } : {}),
          cause: error,
        });
      }
      await delay(retryDelayMs(policy, attempt, failure.retryAfterMs), options.signal);
    }
  }
}
