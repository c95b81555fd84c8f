import { readFileSync } from "node:fs";
import { z } from "zod";
import { KNOWN_MODELS } from "./catalogue-data.js";
import { formatModelSpec, type ModelPricing, type ModelSpec } from "./model-spec.js";

export interface ModelCapabilities {
  tools: boolean;
  images: boolean;
  reasoning: boolean;
  promptCaching: boolean;
}

/** What the platform knows of a model: the single source for the loop, experiments, scorers and budgets. */
export interface ModelInfo {
  /** Tokens accepted in one call, prompt and output together. */
  contextWindow: number;
  maxOutputTokens: number;
  /** US dollars per million tokens; absent when the price is unknown (costs are then not estimated). */
  pricing?: ModelPricing;
  capabilities: ModelCapabilities;
}

/** A model as a session uses it: the catalogue's entry under what the agent's `model` object says. */
export interface ResolvedModel {
  /** `<provider>/<model-id>`. */
  name: string;
  /** Unknown for a model neither the catalogue nor the agent describes: only a provider's refusal then compacts. */
  contextWindow?: number;
  maxOutputTokens?: number;
  pricing?: ModelPricing;
  capabilities?: ModelCapabilities;
}

const price = z.number().min(0).max(10_000);
const PricingSchema = z
  .object({
    input: price,
    output: price,
    cachedInputRead: price.optional(),
    cachedInputWrite: price.optional(),
  })
  .strict();
const EntrySchema = z
  .object({
    contextWindow: z.number().int().min(1_024).optional(),
    maxOutputTokens: z.number().int().min(1).optional(),
    pricing: PricingSchema.optional(),
    capabilities: z
      .object({
        tools: z.boolean().optional(),
        images: z.boolean().optional(),
        reasoning: z.boolean().optional(),
        promptCaching: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
const OverridesSchema = z.record(
  z.string().regex(/^[a-z][a-z0-9-]*\/\S+$/, "keys are `<provider>/<model-id>`"),
  EntrySchema,
);

type Overrides = z.infer<typeof OverridesSchema>;

const NO_CAPABILITIES: ModelCapabilities = { tools: true, images: false, reasoning: false, promptCaching: false };

function merge(base: ModelInfo | undefined, entry: Overrides[string]): ModelInfo | Partial<ModelInfo> {
  return {
    ...base,
    ...(entry.contextWindow !== undefined ? { contextWindow: entry.contextWindow } : {}),
    ...(entry.maxOutputTokens !== undefined ? { maxOutputTokens: entry.maxOutputTokens } : {}),
    ...(entry.pricing ? { pricing: entry.pricing } : {}),
    ...(entry.capabilities || !base
      ? { capabilities: { ...(base?.capabilities ?? NO_CAPABILITIES), ...entry.capabilities } }
      : {}),
  };
}

export class ModelCatalogue {
  private readonly entries: ReadonlyMap<string, Partial<ModelInfo>>;

  constructor(overrides: Overrides = {}) {
    const entries = new Map<string, Partial<ModelInfo>>(Object.entries(KNOWN_MODELS));
    for (const [name, entry] of Object.entries(overrides)) {
      entries.set(name, merge(KNOWN_MODELS[name], entry));
    }
    this.entries = entries;
  }

  /** The entry of `<provider>/<model-id>`, with whatever the deployment added; undefined when nobody described it. */
  lookup(name: string): Partial<ModelInfo> | undefined {
    return this.entries.get(name);
  }

  /** The model of `spec`: the catalogue's entry, overridden field by field by the agent's `model` object. */
  resolve(spec: ModelSpec): ResolvedModel {
    const name = formatModelSpec(spec);
    const entry = this.entries.get(name);
    const contextWindow = spec.contextWindow ?? entry?.contextWindow;
    const maxOutputTokens = spec.maxOutputTokens ?? entry?.maxOutputTokens;
    const pricing = spec.pricing ?? entry?.pricing;
    const capabilities = spec.capabilities
      ? { ...(entry?.capabilities ?? NO_CAPABILITIES), ...spec.capabilities }
      : entry?.capabilities;
    return {
      name,
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
      ...(pricing ? { pricing } : {}),
      ...(capabilities ? { capabilities } : {}),
    };
  }

  /** Every model described, keyed `<provider>/<model-id>`, in name order (the catalogue route lists them). */
  list(): [string, Partial<ModelInfo>][] {
    return [...this.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Estimated cost in US dollars of `usage` on `model` (`<provider>/<id>`), or null when its price is unknown. */
  estimateCostUsd(model: string | ModelPricing | undefined, usage: PricedUsage) {
    const pricing = typeof model === "string" ? this.entries.get(model)?.pricing : model;
    return costOf(pricing, usage);
  }
}

/** The token counts a cost is computed from (`ModelUsage`'s). */
export interface PricedUsage {
  /** All prompt tokens, cached ones included. */
  inputTokens: number;
  /** All completion tokens, reasoning included (billed as output by every provider). */
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/**
 * The one pricing function (usage entries, compaction, experiments, budgets): estimated US dollars of a call, or null
 * when the price is unknown. Cached tokens read or written are priced at `cachedInputRead` / `cachedInputWrite` (the
 * input price when the catalogue gives none); the rest of the prompt at `input`; all output, reasoning included, at
 * `output`. Rounded to the micro-dollar, the unit budgets count in.
 */
export function costOf(pricing: ModelPricing | undefined, usage: PricedUsage): number | null {
  if (!pricing) return null;
  const read = usage.cacheReadTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - read - written);
  const microDollars =
    uncached * pricing.input +
    read * (pricing.cachedInputRead ?? pricing.input) +
    written * (pricing.cachedInputWrite ?? pricing.input) +
    usage.outputTokens * pricing.output;
  // Prices are per million tokens: tokens × price is the cost in micro-dollars.
  return Math.round(microDollars) / 1_000_000;
}

type EnvLike = Readonly<Record<string, string | undefined>>;

/**
 * Reads the deployment's additions and overrides: `MODEL_CATALOGUE_FILE` (path to a JSON file), then `MODEL_CATALOGUE`
 * (JSON in the variable, applied over the file's entries). Throws a readable error on a malformed value.
 */
export function readCatalogueOverrides(env: EnvLike): Overrides {
  const parse = (source: string, text: string): Overrides => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const parsed = OverridesSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`${source}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
    }
    return parsed.data;
  };
  const file = env.MODEL_CATALOGUE_FILE?.trim();
  const inline = env.MODEL_CATALOGUE?.trim();
  const fromFile = file ? parse(`MODEL_CATALOGUE_FILE (${file})`, readFileSync(file, "utf8")) : {};
  const fromEnv = inline ? parse("MODEL_CATALOGUE", inline) : {};
  const merged: Overrides = { ...fromFile };
  for (const [name, entry] of Object.entries(fromEnv)) {
    merged[name] = { ...merged[name], ...entry };
  }
  return merged;
}

const catalogues = new WeakMap<EnvLike, ModelCatalogue>();

/** The catalogue of a configuration environment, read once (at startup: `loadConfig` checks it). */
export function modelCatalogueOf(env: EnvLike): ModelCatalogue {
  let catalogue = catalogues.get(env);
  if (!catalogue) {
    catalogue = new ModelCatalogue(readCatalogueOverrides(env));
    catalogues.set(env, catalogue);
  }
  return catalogue;
}
