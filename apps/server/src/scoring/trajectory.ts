import { isDeepStrictEqual } from "node:util";
import type { ExpectedToolCall, TrajectoryMetrics } from "@agent-platform/contract";

/** A tool call the case's agent made: its name (as the model called it) and its arguments. */
export interface ToolCall {
  name: string;
  input: unknown;
}

export type TrajectoryMode = "exact" | "in_order" | "any_order";

export interface TrajectoryVerdict {
  passed: boolean;
  metrics: TrajectoryMetrics;
  /** What differs (missing, extra, order, arguments); null when it passed. */
  reason: string | null;
}

/** The expected call matches the actual one: same name, and every expected argument equal (deep) in the call. */
export function callMatches(expected: ExpectedToolCall, actual: ToolCall): boolean {
  if (expected.name !== actual.name) return false;
  const args = expected.arguments ?? {};
  const input = (typeof actual.input === "object" && actual.input !== null ? actual.input : {}) as Record<
    string,
    unknown
  >;
  return Object.entries(args).every(([key, value]) => key in input && isDeepStrictEqual(input[key], value));
}

/**
 * Compares the calls made with the calls expected. The number matched is, per mode: position by position (`exact`),
 * the longest common subsequence (`in_order`), or a one-to-one matching ignoring order (`any_order`); precision =
 * matched / made, recall = matched / expected (1 for an empty side that should be empty).
 */
export function scoreTrajectory(
  expected: readonly ExpectedToolCall[],
  actual: readonly ToolCall[],
  mode: TrajectoryMode,
): TrajectoryVerdict {
  const matched =
    mode === "exact"
      ? positional(expected, actual)
      : mode === "in_order"
        ? lcs(expected, actual)
        : unordered(expected, actual).matched;
  const passed =
    mode === "exact" ? matched === expected.length && actual.length === expected.length : matched === expected.length;
  const precision = actual.length === 0 ? (expected.length === 0 ? 1 : 0) : matched / actual.length;
  const recall = expected.length === 0 ? 1 : matched / expected.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { passed, metrics: { precision, recall, f1 }, reason: passed ? null : explain(expected, actual, mode) };
}

function positional(expected: readonly ExpectedToolCall[], actual: readonly ToolCall[]): number {
  let n = 0;
  for (let i = 0; i < Math.min(expected.length, actual.length); i++) if (callMatches(expected[i]!, actual[i]!)) n++;
  return n;
}

function lcs(expected: readonly ExpectedToolCall[], actual: readonly ToolCall[]): number {
  let previous = new Array<number>(actual.length + 1).fill(0);
  for (const want of expected) {
    const row = new Array<number>(actual.length + 1).fill(0);
    for (let j = 1; j <= actual.length; j++) {
      row[j] = callMatches(want, actual[j - 1]!) ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    }
    previous = row;
  }
  return previous[actual.length]!;
}

/** Greedy one-to-one matching, expected calls with the most specific arguments first. */
function unordered(expected: readonly ExpectedToolCall[], actual: readonly ToolCall[]) {
  const used = new Set<number>();
  const missing: ExpectedToolCall[] = [];
  const order = expected
    .map((call, index) => ({ call, index, keys: Object.keys(call.arguments ?? {}).length }))
    .sort((a, b) => b.keys - a.keys || a.index - b.index);
  for (const { call } of order) {
    const at = actual.findIndex((made, j) => !used.has(j) && callMatches(call, made));
    if (at === -1) missing.push(call);
    else used.add(at);
  }
  return { matched: used.size, missing, extra: actual.filter((_, j) => !used.has(j)) };
}

function explain(expected: readonly ExpectedToolCall[], actual: readonly ToolCall[], mode: TrajectoryMode): string {
  const { missing, extra } = unordered(expected, actual);
  const parts: string[] = [];
  const otherArguments = new Set<ToolCall>();
  for (const call of missing) {
    const sameName = extra.find((made) => made.name === call.name && !otherArguments.has(made));
    if (!sameName) {
      parts.push(`missing ${call.name}`);
      continue;
    }
    otherArguments.add(sameName);
    const want = JSON.stringify(call.arguments ?? {});
    parts.push(`${call.name} called with other arguments (expected ${want}, got ${JSON.stringify(sameName.input)})`);
  }
  // Extra calls only fail `exact`; the other modes allow calls between the expected ones.
  if (mode === "exact") for (const made of extra) if (!otherArguments.has(made)) parts.push(`extra ${made.name}`);
  if (missing.length === 0 && (mode === "in_order" || (mode === "exact" && extra.length === 0))) {
    parts.push(`wrong order: expected ${names(expected)}, called ${names(actual)}`);
  }
  return parts.join("; ");
}

function names(calls: readonly { name: string }[]): string {
  return calls.length === 0 ? "no tool calls" : calls.map((c) => c.name).join(", ");
}
