import { describe, expect, it } from "vitest";
import { resolveRetryPolicy, retryDelayMs } from "../../src/models/retry-policy.js";

describe("retry policy", () => {
  const policy = resolveRetryPolicy({ attempts: 5, baseDelayMs: 100, maxDelayMs: 1_000, jitter: 0.5 });

  it("doubles the delay per failed attempt up to the maximum", () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(policy, attempt, undefined, middle))).toEqual([
      100, 200, 400, 800, 1_000,
    ]);
  });

  it("applies jitter in both directions", () => {
    expect(retryDelayMs(policy, 2, undefined, () => 0)).toBe(100);
    expect(retryDelayMs(policy, 2, undefined, () => 1)).toBe(300);
  });

  it("waits at least as long as Retry-After asks, within the maximum", () => {
    expect(retryDelayMs(policy, 1, 700, () => 0.5)).toBe(700);
    expect(retryDelayMs(policy, 1, 60_000, () => 0.5)).toBe(1_000);
  });

  it("always makes at least one attempt", () => {
    expect(resolveRetryPolicy({ attempts: 0 }).attempts).toBe(1);
  });
});
