import type { SharedV3ProviderOptions } from "@ai-sdk/provider";
import type { ModelSpec } from "./model-spec.js";

/** Thinking budgets an effort level stands for on Anthropic (which takes a budget, not a level). */
const ANTHROPIC_EFFORT_BUDGET = { low: 2_048, medium: 8_192, high: 24_576 } as const;

/**
 * The provider options of a model's reasoning setting (`providerOptions` of the AI SDK providers): Anthropic's
 * extended thinking with a budget (`thinking`), OpenAI's `reasoningEffort` (with the reasoning items' encrypted
 * content, which the Responses API needs back across tool calls when nothing is stored on OpenAI's side).
 * Undefined without a setting; OpenAI-compatible servers take the effort as `reasoning_effort`. On OpenAI, also the
 * prompt-cache key (`promptCacheKey`), with or without a reasoning setting.
 */
export function reasoningProviderOptions(
  spec: ModelSpec,
  promptCacheKey?: string,
): SharedV3ProviderOptions | undefined {
  const reasoning = spec.reasoning;
  // OpenAI groups cached prompts by key: one per session keeps a session's calls on the same cache.
  if (spec.provider === "openai" && promptCacheKey !== undefined && !reasoning) return { openai: { promptCacheKey } };
  if (!reasoning) return undefined;
  switch (spec.provider) {
    case "anthropic": {
      const budgetTokens = reasoning.budgetTokens ?? ANTHROPIC_EFFORT_BUDGET[reasoning.effort ?? "medium"];
      return { anthropic: { thinking: { type: "enabled", budgetTokens } } };
    }
    case "openai":
      return {
        openai: {
          reasoningEffort: reasoning.effort ?? effortOfBudget(reasoning.budgetTokens ?? 0),
          store: false,
          include: ["reasoning.encrypted_content"],
          ...(promptCacheKey !== undefined ? { promptCacheKey } : {}),
        },
      };
    case "openai-compatible":
      return {
        "openai-compatible": { reasoningEffort: reasoning.effort ?? effortOfBudget(reasoning.budgetTokens ?? 0) },
      };
    default:
      return undefined;
  }
}

function effortOfBudget(budget: number): "low" | "medium" | "high" {
  return budget <= ANTHROPIC_EFFORT_BUDGET.low ? "low" : budget <= ANTHROPIC_EFFORT_BUDGET.medium ? "medium" : "high";
}
