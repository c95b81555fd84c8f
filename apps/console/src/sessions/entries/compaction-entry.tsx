import type { SessionCompactionEvent } from "@agent-platform/sdk";
import { LongText } from "../../components/long-text.js";
import { formatNumber, formatUsd } from "../../lib/format.js";
import type { EntryProps } from "./entry-props.js";

/** The earlier conversation was summarised: what the model is sent instead of entries `fromSeq`…`toSeq`. */
export function CompactionEntry({ entry }: EntryProps<SessionCompactionEvent>) {
  return (
    <article className="entry compaction" aria-label="compaction">
      <header>
        <strong>Conversation summarised</strong>
        <span className="meta">
          entries {entry.fromSeq}–{entry.toSeq} ·{" "}
          {entry.reason === "threshold" ? "the prompt passed the threshold" : "the model refused the prompt's size"} ·{" "}
          {formatNumber(entry.tokensBefore)} → {formatNumber(entry.tokensAfter)} tokens · {entry.usage.model}{" "}
          {entry.usage.costUsd === undefined || entry.usage.costUsd === null ? "" : formatUsd(entry.usage.costUsd)}
        </span>
      </header>
      <LongText text={entry.summary} />
    </article>
  );
}
