import type { AgentUsageEvent } from "@agent-platform/sdk";
import { formatDuration, formatNumber, formatUsd } from "../../lib/format.js";
import type { EntryProps } from "./entry-props.js";

/** One model call: its model, tokens (cached and reasoning ones when reported), cost and duration. */
export function UsageEntry({ entry, duration }: EntryProps<AgentUsageEvent>) {
  const extras = [
    entry.cacheReadInputTokens ? `${formatNumber(entry.cacheReadInputTokens)} cached` : "",
    entry.reasoningTokens ? `${formatNumber(entry.reasoningTokens)} reasoning` : "",
  ].filter(Boolean);
  return (
    <div className="entry usage">
      model call <code>{entry.model}</code>: {formatNumber(entry.inputTokens)} input ·{" "}
      {formatNumber(entry.outputTokens)} output tokens
      {extras.length > 0 && ` (${extras.join(", ")})`}
      {entry.estimated && " (estimated)"}
      {" · "}
      {entry.costUsd === undefined || entry.costUsd === null ? "cost unknown" : formatUsd(entry.costUsd)}
      {duration !== undefined && ` · ${formatDuration(duration)}`}
    </div>
  );
}
