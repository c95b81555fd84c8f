import { KNOWN_EMBEDDING_MODELS } from "./embedding-catalogue.js";

export const EMBEDDING_PROVIDERS = ["openai", "openai-compatible", "builtin"] as const;
export type EmbeddingProvider = (typeof EMBEDDING_PROVIDERS)[number];
export const BUILTIN_EMBEDDING_IDS = ["hash-ngrams"] as const;

/** The default of a new knowledge base or memory store: works offline with no key. */
export const DEFAULT_EMBEDDING_MODEL = "builtin/hash-ngrams";

/** An embedding model as a knowledge base or memory store names it. */
export type EmbeddingModelReference =
  | string
  | { id: string; dimensions?: number; pricing?: { input: number }; maxInputTokens?: number };

export interface EmbeddingSpec {
  provider: EmbeddingProvider;
  modelId: string;
  /** Asked-for vector length (models that can shorten them); absent: the model's own. */
  dimensions?: number;
  /** US dollars per million input tokens, overriding the catalogue's. */
  pricePerMillionTokens?: number;
  maxInputTokens?: number;
}

export type ParseEmbeddingSpecResult = { ok: true; spec: EmbeddingSpec } | { ok: false; message: string };

const KEYS = new Set(["id", "dimensions", "pricing", "maxInputTokens"]);

function parseId(id: string): ParseEmbeddingSpecResult {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1 || /\s/.test(id)) {
    return { ok: false, message: `Embedding model "${id}" must have the form <provider>/<model-id>` };
  }
  const provider = id.slice(0, slash);
  const modelId = id.slice(slash + 1);
  if (!(EMBEDDING_PROVIDERS as readonly string[]).includes(provider)) {
    return {
      ok: false,
      message: `Unknown embedding provider "${provider}"; expected one of ${EMBEDDING_PROVIDERS.join(", ")}`,
    };
  }
  if (provider === "builtin" && !(BUILTIN_EMBEDDING_IDS as readonly string[]).includes(modelId)) {
    return {
      ok: false,
      message: `Unknown builtin embedding model "${modelId}"; builtin: ${BUILTIN_EMBEDDING_IDS.map((m) => `builtin/${m}`).join(", ")}`,
    };
  }
  return { ok: true, spec: { provider: provider as EmbeddingProvider, modelId } };
}

/** Parses an embedding model reference (string or object form). Pure. */
export function parseEmbeddingSpec(reference: unknown): ParseEmbeddingSpecResult {
  if (typeof reference === "string") return parseId(reference);
  if (typeof reference !== "object" || reference === null || Array.isArray(reference)) {
    return { ok: false, message: "Embedding model must be a string <provider>/<model-id> or an object with an `id`" };
  }
  const value = reference as Record<string, unknown>;
  const unknown = Object.keys(value).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) return { ok: false, message: `Unknown embedding model field(s): ${unknown.join(", ")}` };
  if (typeof value.id !== "string") return { ok: false, message: "Embedding model object needs a string `id`" };
  const base = parseId(value.id);
  if (!base.ok) return base;
  const spec: EmbeddingSpec = { ...base.spec };
  const known = KNOWN_EMBEDDING_MODELS[`${spec.provider}/${spec.modelId}`];
  if (value.dimensions !== undefined) {
    const dims = value.dimensions;
    if (typeof dims !== "number" || !Number.isInteger(dims) || dims < 8 || dims > 16_000) {
      return { ok: false, message: "Embedding `dimensions` must be an integer from 8 to 16000" };
    }
    if (known && !known.shortenable && dims !== known.dimensions) {
      return { ok: false, message: `${value.id} returns ${known.dimensions} dimensions and cannot shorten them` };
    }
    if (known && dims > known.dimensions) {
      return { ok: false, message: `${value.id} returns at most ${known.dimensions} dimensions` };
    }
    if (!known || dims !== known.dimensions) spec.dimensions = dims;
  }
  if (value.pricing !== undefined) {
    const pricing = value.pricing as Record<string, unknown> | null;
    const input = pricing && typeof pricing === "object" ? pricing.input : undefined;
    if (typeof input !== "number" || !Number.isFinite(input) || input < 0 || input > 10_000) {
      return { ok: false, message: "Embedding `pricing` must be `{ input }`: US dollars per million tokens" };
    }
    spec.pricePerMillionTokens = input;
  }
  if (value.maxInputTokens !== undefined) {
    const max = value.maxInputTokens;
    if (typeof max !== "number" || !Number.isInteger(max) || max < 16) {
      return { ok: false, message: "Embedding `maxInputTokens` must be an integer of at least 16" };
    }
    spec.maxInputTokens = max;
  }
  return { ok: true, spec };
}

/** `<provider>/<model-id>`: the name in usage and logs. */
export function embeddingModelName(spec: Pick<EmbeddingSpec, "provider" | "modelId">): string {
  return `${spec.provider}/${spec.modelId}`;
}

/**
 * The vector space of a spec: vectors of one space compare with each other, of two spaces never. A model and a
 * requested length (`openai/text-embedding-3-small@512`).
 */
export function embeddingSpace(spec: EmbeddingSpec): string {
  return spec.dimensions !== undefined ? `${embeddingModelName(spec)}@${spec.dimensions}` : embeddingModelName(spec);
}

/** The reference as stored and shown: the string form when nothing else was given. */
export function canonicalEmbeddingReference(spec: EmbeddingSpec): EmbeddingModelReference {
  const id = embeddingModelName(spec);
  if (spec.dimensions === undefined && spec.pricePerMillionTokens === undefined && spec.maxInputTokens === undefined) {
    return id;
  }
  return {
    id,
    ...(spec.dimensions !== undefined ? { dimensions: spec.dimensions } : {}),
    ...(spec.pricePerMillionTokens !== undefined ? { pricing: { input: spec.pricePerMillionTokens } } : {}),
    ...(spec.maxInputTokens !== undefined ? { maxInputTokens: spec.maxInputTokens } : {}),
  };
}
