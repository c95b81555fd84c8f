import type { SessionStatusIdleEvent } from "@agent-platform/sdk";
import { formatDuration } from "../../lib/format.js";
import type { EntryProps } from "./entry-props.js";

export function StatusRunningEntry() {
  return <div className="entry status">▶ turn started</div>;
}

export function StatusIdleEntry({ entry, duration }: EntryProps<SessionStatusIdleEvent>) {
  if (entry.stopReason === "guardrail_blocked") {
    return (
      <div className="entry status blocked" role="note" aria-label="turn blocked by a guardrail">
        ■ turn ended: <strong>blocked by a guardrail</strong> <code>guardrail_blocked</code> — see the guardrail's
        decision above
        {duration !== undefined && <span className="meta"> · turn took {formatDuration(duration)}</span>}
      </div>
    );
  }
  return (
    <div className="entry status">
      ■ turn ended: <strong>{entry.stopReason}</strong>
      {entry.pendingActions?.length ? ` — waiting on ${entry.pendingActions.map((a) => a.name).join(", ")}` : ""}
      {duration !== undefined && <span className="meta"> · turn took {formatDuration(duration)}</span>}
    </div>
  );
}

export function InterruptEntry() {
  return <div className="entry status">■ interrupt requested</div>;
}
