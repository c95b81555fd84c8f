import type { BudgetMeter } from "@agent-platform/contract";

/**
 * Counters and limits are integers: `cost_usd` is counted in micro-dollars (US$ 0.000001), exact in a BIGINT, and
 * shown in dollars. The other meters are counts, stored as they are shown.
 */
export const MICRO_USD_PER_USD = 1_000_000;

/** A value of the API (dollars for `cost_usd`) as stored. */
export function toStoredAmount(meter: string, value: number): bigint {
  return BigInt(meter === "cost_usd" ? Math.round(value * MICRO_USD_PER_USD) : value);
}

/** A stored value as the API shows it. */
export function toShownAmount(meter: BudgetMeter | string, stored: bigint | string | number): number {
  return meter === "cost_usd" ? Number(stored) / MICRO_USD_PER_USD : Number(stored);
}

/** US dollars as micro-dollars (the `cost_usd` counters' unit); 0 for an unknown cost. */
export function microUsd(usd: number | null): number {
  return usd === null ? 0 : Math.round(usd * MICRO_USD_PER_USD);
}
