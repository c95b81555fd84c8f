import { schemaRef } from "./components.js";
import { EXAMPLE_LOG_ENTRIES } from "./examples/log-entries.js";
import type { JsonObject } from "./json.js";

export const EVENT_STREAM_DESCRIPTION = [
  "Server-Sent Events (`text/event-stream; charset=utf-8`). Each session log entry is one event:",
  "",
  "```",
  "id: <seq>",
  "event: <entry type, e.g. agent.message>",
  "data: <the log entry as one line of JSON: a SessionLogEvent>",
  "",
  "```",
  "",
  "The stream first replays the entries after `Last-Event-ID` (or `afterSeq`, default 0), then sends each new entry as",
  "it is committed, in `seq` order without gaps or repeats. A `: ping` comment line is sent every 15 seconds so",
  "proxies keep the connection open; clients ignore it. The stream does not end by itself when the session becomes",
  "idle: it ends when the client disconnects or the server shuts down (or fails); reconnect with `Last-Event-ID` set",
  "to the last `id` received to resume exactly there. A missing session is a 404 JSON error before any event is sent.",
  "",
  "With `deltas=true` the stream also carries the reply as the model writes it: `event: agent.delta` frames without",
  "`id:` whose `data:` is a SessionDelta (text, reasoning, or tool-call input fragments of one model call). They are",
  "best effort and ephemeral (not log entries, not replayed on resume); the `agent.message` entry that follows is",
  "authoritative. When an output guardrail blocks or redacts the reply, an `event: agent.delta_withdrawn` frame (data:",
  "a SessionDeltaWithdrawn) follows its deltas: take the streamed text back. Without `deltas=true` the stream is",
  "exactly the log entries.",
].join("\n");

export const EVENT_STREAM_EXAMPLE = `${EXAMPLE_LOG_ENTRIES.map(
  (e) => `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`,
).join("")}: ping\n\n`;

/** The `text/event-stream` media type: the frames as text, each `data:` line being a SessionLogEvent. */
export function eventStreamMedia(): JsonObject {
  return {
    schema: {
      type: "string",
      description: "SSE frames; the JSON of each `data:` line is a SessionLogEvent",
      "x-event-schema": schemaRef("SessionLogEvent"),
      "x-delta-event-schema": schemaRef("SessionDelta"),
      "x-delta-withdrawn-event-schema": schemaRef("SessionDeltaWithdrawn"),
    },
    example: EVENT_STREAM_EXAMPLE,
  };
}
