import type { SessionLogEvent } from "@agent-platform/sdk";

/** What every entry component is given: the log entry and, where the log says it, how long its step took (ms). */
export interface EntryProps<E = SessionLogEvent> {
  entry: E;
  duration?: number;
}

/** The fields of an entry beyond its envelope (`seq`, `id`, `type`, `createdAt`). */
export function payloadOf(entry: SessionLogEvent): [string, unknown][] {
  return Object.entries(entry).filter(([key]) => !ENVELOPE.has(key));
}

const ENVELOPE = new Set(["seq", "id", "type", "createdAt"]);
