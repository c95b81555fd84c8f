import type { SessionStatusIdleEvent } from "@agent-platform/sdk";
import { formatDuration } from "../../lib/format.js";
import type { EntryProps } from "./entry-props.js";

export function StatusRunningEntry() {
  return <div className="entry status">▶ turn started</div>;
}

export function StatusIdleEntry({ entry, duration }: EntryProps<SessionStatusIdleEvent>) {
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
