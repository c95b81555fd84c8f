import type { SessionErrorEvent, SessionMcpServerUnavailableEvent } from "@agent-platform/sdk";
import type { EntryProps } from "./entry-props.js";

export function SessionErrorEntry({ entry }: EntryProps<SessionErrorEvent>) {
  return (
    <div className="entry error-entry" role="note">
      <strong>Error {entry.error.code}</strong>: {entry.error.message}
    </div>
  );
}

export function McpUnavailableEntry({ entry }: EntryProps<SessionMcpServerUnavailableEvent>) {
  return (
    <div className="entry error-entry">
      MCP server <strong>{entry.serverName}</strong> unavailable: {entry.message}
    </div>
  );
}
