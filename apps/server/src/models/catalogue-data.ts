import type { ModelInfo } from "./catalogue.js";

const FULL = { tools: true, images: true, reasoning: true, promptCaching: true } as const;
const NO_REASONING = { ...FULL, reasoning: false } as const;

/**
 * The models the platform knows, keyed `<provider>/<model-id>`, from the providers' public model pages and price
 * lists (November 2026). Prices are US dollars per million tokens: an estimate, not a bill. OpenAI caches prompts
 * without a write surcharge (no `cachedInputWrite`); Anthropic bills cache writes at 1.25× the input price (5-minute
 * cache). `openai-compatible` models are deployment-specific: a deployment declares them in `MODEL_CATALOGUE` /
 * `MODEL_CATALOGUE_FILE`, or an agent in its `model` object (docs/models.md).
 */
export const KNOWN_MODELS: Readonly<Record<string, ModelInfo>> = {
  "anthropic/claude-opus-4-5": {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 5, output: 25, cachedInputRead: 0.5, cachedInputWrite: 6.25 },
    capabilities: FULL,
  },
  "anthropic/claude-opus-4-1": {
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    pricing: { input: 15, output: 75, cachedInputRead: 1.5, cachedInputWrite: 18.75 },
    capabilities: FULL,
  },
  "anthropic/claude-sonnet-4-5": {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 3, output: 15, cachedInputRead: 0.3, cachedInputWrite: 3.75 },
    capabilities: FULL,
  },
  "anthropic/claude-sonnet-4": {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 3, output: 15, cachedInputRead: 0.3, cachedInputWrite: 3.75 },
    capabilities: FULL,
  },
  "anthropic/claude-haiku-4-5": {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    pricing: { input: 1, output: 5, cachedInputRead: 0.1, cachedInputWrite: 1.25 },
    capabilities: FULL,
  },
  "openai/gpt-5": {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 1.25, output: 10, cachedInputRead: 0.125 },
    capabilities: FULL,
  },
  "openai/gpt-5-mini": {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 0.25, output: 2, cachedInputRead: 0.025 },
    capabilities: FULL,
  },
  "openai/gpt-5-nano": {
    contextWindow: 400_000,
    maxOutputTokens: 128_000,
    pricing: { input: 0.05, output: 0.4, cachedInputRead: 0.005 },
    capabilities: FULL,
  },
  "openai/gpt-4.1": {
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    pricing: { input: 2, output: 8, cachedInputRead: 0.5 },
    capabilities: NO_REASONING,
  },
  "openai/gpt-4.1-mini": {
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    pricing: { input: 0.4, output: 1.6, cachedInputRead: 0.1 },
    capabilities: NO_REASONING,
  },
  "openai/gpt-4o": {
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    pricing: { input: 2.5, output: 10, cachedInputRead: 1.25 },
    capabilities: NO_REASONING,
  },
  "openai/gpt-4o-mini": {
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    pricing: { input: 0.15, output: 0.6, cachedInputRead: 0.075 },
    capabilities: NO_REASONING,
  },
  "openai/o3": {
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    pricing: { input: 2, output: 8, cachedInputRead: 0.5 },
    capabilities: FULL,
  },
  "openai/o4-mini": {
    contextWindow: 200_000,
    maxOutputTokens: 100_000,
    pricing: { input: 1.1, output: 4.4, cachedInputRead: 0.275 },
    capabilities: FULL,
  },
  // Offline and free; never calls tools.
  "builtin/echo": {
    contextWindow: 1_000_000,
    maxOutputTokens: 1_000_000,
    pricing: { input: 0, output: 0 },
    capabilities: { tools: false, images: false, reasoning: false, promptCaching: false },
  },
  // Offline and free; calls tools when the user message says so (`/call`).
  "builtin/script": {
    contextWindow: 1_000_000,
    maxOutputTokens: 1_000_000,
    pricing: { input: 0, output: 0 },
    capabilities: { tools: true, images: false, reasoning: false, promptCaching: false },
  },
};
