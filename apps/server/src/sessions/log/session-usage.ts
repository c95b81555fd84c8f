import type { NewEvent } from "./event-log.js";

/** What the model calls logged by one commit add to the session's usage sums (columns of `sessions`). */
export interface SessionUsageDelta {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheWriteInputTokens: number;
  reasoningTokens: number;
  costMicroUsd: number;
  costUnknown: boolean;
}

const COLUMNS = [
  "inputTokens",
  "outputTokens",
  "cacheReadInputTokens",
  "cacheWriteInputTokens",
  "reasoningTokens",
] as const;

/**
 * The usage of the model calls among `events` (`agent.usage` entries, the call of a `session.compaction`, the judge
 * calls of a `session.outcome_evaluation`, the call of a model-backed `session.guardrail`); null
 * when there is none, so that commits without a model call write nothing more.
 */
export function sessionUsageOf(events: readonly NewEvent[]): SessionUsageDelta | null {
  let delta: SessionUsageDelta | null = null;
  for (const event of events) {
    const record =
      event.type === "agent.usage"
        ? event.payload
        : event.type === "session.compaction"
          ? (event.payload?.usage as Record<string, unknown> | undefined)
          : event.type === "session.outcome_evaluation" || event.type === "session.guardrail"
            ? gradingUsage(event.payload)
            : undefined;
    if (!record) continue;
    delta ??= {
      inputTokens: 0,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheWriteInputTokens: 0,
      reasoningTokens: 0,
      costMicroUsd: 0,
      costUnknown: false,
    };
    for (const column of COLUMNS) delta[column] += Number(record[column] ?? 0) || 0;
    const cost = record.costUsd;
    if (typeof cost === "number") delta.costMicroUsd += Math.round(cost * 1_000_000);
    else delta.costUnknown = true;
  }
  return delta;
}

/** `, "col" = "col" + $n, …` for an `UPDATE sessions SET` (placeholders pushed through `at`). */
export function sessionUsageSet(delta: SessionUsageDelta, at: (value: unknown) => string, table = ""): string {
  const prefix = table ? `${table}.` : "";
  const sums = [...COLUMNS, "costMicroUsd" as const].map(
    (column) => `, "${column}" = ${prefix}"${column}" + ${at(delta[column])}::bigint`,
  );
  const unknown = delta.costUnknown ? `, "costUnknown" = true` : "";
  return sums.join("") + unknown;
}

/** An outcome evaluation's judge calls (none when every scorer was local): their tokens, with the entry's cost. */
function gradingUsage(payload: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const usage = payload?.usage as Record<string, unknown> | undefined;
  if (!usage || !(Number(usage.modelCalls) > 0)) return undefined;
  return { ...usage, costUsd: payload?.costUsd };
}
