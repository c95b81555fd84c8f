import { microUsd, type UsageAmount } from "../../budgets/index.js";
import type { ModelPricing } from "../../models/index.js";

/**
 * Micro-dollars reserved on a blocking `cost_usd` budget before a model call: the estimated prompt at the dearest input
 * price (writing to Anthropic's prompt cache costs more than plain input) and the output cap at the output price.
 * 0 when the price is unknown: such calls are not counted in dollars.
 */
export function costToReserve(pricing: ModelPricing | undefined, promptTokens: number, outputTokens: number): number {
  if (!pricing) return 0;
  const input = Math.max(pricing.input, pricing.cachedInputWrite ?? 0);
  return Math.ceil(promptTokens * input + outputTokens * pricing.output);
}

/**
 * How a call stands on the cost meter before it is made: a reservation when its price is known, else only a check
 * that no blocking cost budget has been reached already.
 */
export function costReservation(micro: number): { reserve: UsageAmount[]; check: "cost_usd"[] } {
  return micro > 0
    ? { reserve: [{ meter: "cost_usd", amount: micro }], check: [] }
    : { reserve: [], check: ["cost_usd"] };
}

/** The cost meter's part of a call's commit: its cost, less what its recorded reservation (if any) already counted. */
export function costSettlement(costUsd: number | null, reservedMicro: number | null): UsageAmount[] {
  return [{ meter: "cost_usd", amount: microUsd(costUsd) - (reservedMicro ?? 0) }];
}
