/**
 * Estimated prices of known models, in US dollars per million tokens (input, output), from the providers' public price
 * lists (November 2026). An estimate, not a bill: a model not listed here has no estimate (null). Models served through
 * `openai-compatible` (self-hosted or of unknown price) are not listed; the builtin models (`builtin/echo`,
 * `builtin/script`) cost nothing.
 */
const PRICES: Record<string, { input: number; output: number }> = {
  "builtin/echo": { input: 0, output: 0 },
  "builtin/script": { input: 0, output: 0 },
  "openai/gpt-5": { input: 1.25, output: 10 },
  "openai/gpt-5-mini": { input: 0.25, output: 2 },
  "openai/gpt-5-nano": { input: 0.05, output: 0.4 },
  "openai/gpt-4.1": { input: 2, output: 8 },
  "openai/gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "openai/gpt-4o": { input: 2.5, output: 10 },
  "openai/gpt-4o-mini": { input: 0.15, output: 0.6 },
  "anthropic/claude-opus-4-1": { input: 15, output: 75 },
  "anthropic/claude-sonnet-4-5": { input: 3, output: 15 },
  "anthropic/claude-haiku-4-5": { input: 1, output: 5 },
};

/** Estimated cost of `usage` on `model` (`<provider>/<id>`), or null when the price is unknown. */
export function estimateCostUsd(model: string, usage: { inputTokens: number; outputTokens: number }): number | null {
  const price = PRICES[model];
  if (!price) return null;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** Sum of estimates; null as soon as one is unknown. */
export function sumCosts(costs: readonly (number | null)[]): number | null {
  let total = 0;
  for (const cost of costs) {
    if (cost === null) return null;
    total += cost;
  }
  return total;
}
