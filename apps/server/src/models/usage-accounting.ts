import { costOf } from "./catalogue.js";
import type { ModelUsage } from "./model-result.js";
import type { ModelPricing } from "./model-spec.js";

/** What a usage log entry records of a call beyond its token totals: cached and reasoning tokens, and its cost. */
export interface UsageAccounting {
  cacheReadInputTokens: number;
  cacheWriteInputTokens: number;
  reasoningTokens: number;
  costUsd: number | null;
}

/** The accounting of `usage` priced with `pricing` (the resolved model's; null cost when unknown). */
export function usageAccounting(pricing: ModelPricing | undefined, usage: ModelUsage): UsageAccounting {
  return {
    cacheReadInputTokens: usage.cacheReadTokens ?? 0,
    cacheWriteInputTokens: usage.cacheWriteTokens ?? 0,
    reasoningTokens: usage.reasoningTokens ?? 0,
    costUsd: costOf(pricing, usage),
  };
}
