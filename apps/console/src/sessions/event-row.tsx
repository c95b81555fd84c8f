import type { SessionLogEvent } from "@agent-platform/sdk";
import { formatJson, formatNumber } from "../lib/format.js";

/** Entries other than messages and tool uses: status changes, errors, usage of a model call, interrupts. */
export function EventRow({ entry }: { entry: SessionLogEvent }) {
  switch (entry.type) {
    case "session.status_running":
      return <div className="entry status">▶ turn started</div>;
    case "session.status_idle":
      return (
        <div className="entry status">
          ■ turn ended: <strong>{entry.stopReason}</strong>
          {entry.pendingActions?.length ? ` — waiting on ${entry.pendingActions.map((a) => a.name).join(", ")}` : ""}
        </div>
      );
    case "session.error":
      return (
        <div className="entry error-entry" role="note">
          <strong>Error {entry.error.code}</strong>: {entry.error.message}
        </div>
      );
    case "session.mcp_server_unavailable":
      return (
        <div className="entry error-entry">
          MCP server <strong>{entry.serverName}</strong> unavailable: {entry.message}
        </div>
      );
    case "agent.usage":
      return (
        <div className="entry usage">
          model call <code>{entry.model}</code>: {formatNumber(entry.inputTokens)} input ·{" "}
          {formatNumber(entry.outputTokens)} output tokens
        </div>
      );
    case "user.interrupt":
      return <div className="entry status">⏹ interrupt requested</div>;
    default:
      return (
        <div className="entry other">
          <code>{entry.type}</code>
          <pre>{formatJson(entry)}</pre>
        </div>
      );
  }
}
