import { schemaRef } from "./components.js";
import type { JsonObject } from "./json.js";

export const EVENT_STREAM_DESCRIPTION = [
  "Server-Sent Events (`text/event-stream; charset=utf-8`). Each session log entry is one event:",
  "",
  "```",
  "id: <seq>",
  "event: <entry type, e.g. agent.message>",
  "data: <the log entry as one line of JSON: a SessionLogEntry>",
  "",
  "```",
  "",
  "The stream first replays the entries after `Last-Event-ID` (or `afterSeq`, default 0), then sends each new entry as",
  "it is committed, in `seq` order without gaps or repeats. A `: ping` comment line is sent every 15 seconds so",
  "proxies keep the connection open; clients ignore it. The stream does not end by itself when the session becomes",
  "idle: it ends when the client disconnects or the server shuts down (or fails); reconnect with `Last-Event-ID` set",
  "to the last `id` received to resume exactly there. A missing session is a 404 JSON error before any event is sent.",
].join("\n");

const EXAMPLE_ENTRIES = [
  {
    seq: 1,
    id: "evt_01JD3ZM1A2B3C4D5E6F7G8H9J0",
    type: "user.message",
    createdAt: "2026-01-15T10:00:00.000Z",
    content: [{ type: "text", text: "Summarise yesterday's tickets" }],
  },
  {
    seq: 2,
    id: "evt_01JD3ZM1A2B3C4D5E6F7G8H9J1",
    type: "session.status_running",
    createdAt: "2026-01-15T10:00:00.120Z",
  },
  {
    seq: 3,
    id: "evt_01JD3ZM1A2B3C4D5E6F7G8H9J2",
    type: "agent.message",
    createdAt: "2026-01-15T10:00:03.480Z",
    content: [{ type: "text", text: "Yesterday 14 tickets were opened…" }],
  },
];

export const EVENT_STREAM_EXAMPLE = `${EXAMPLE_ENTRIES.map(
  (e) => `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`,
).join("")}: ping\n\n`;

/** The `text/event-stream` media type: the frames as text, each `data:` line being a SessionLogEntry. */
export function eventStreamMedia(): JsonObject {
  return {
    schema: {
      type: "string",
      description: "SSE frames; the JSON of each `data:` line is a SessionLogEntry",
      "x-event-schema": schemaRef("SessionLogEntry"),
    },
    example: EVENT_STREAM_EXAMPLE,
  };
}
