import type { ApiPromise, PagePromise } from "../api-promise.js";
import type {
  IngestAcknowledgement,
  SessionLogEvent,
  SessionStatusIdleEvent,
  SessionsListEventsQuery,
  SessionsMethods,
  UserEvent,
} from "../generated/api.js";
import type { ResourceClient } from "../resources.js";
import type { RequestOptions, TransportConfig } from "../transport.js";
import { type FollowItem, type FollowOptions, followSession } from "./follow.js";
import { type SendableEvent, withIdempotencyKeys } from "./send.js";
import { type StreamedReply, type StreamReplyOptions, streamReply } from "./stream-reply.js";
import { type WaitForIdleOptions, waitForIdle } from "./wait-for-idle.js";

/** A page of the log with typed entries. */
export interface SessionLogPage {
  data: SessionLogEvent[];
  hasMore: boolean;
  nextAfterSeq: number;
}

type Generated = SessionsMethods;

export interface SessionsResource extends Generated {
  /**
   * One page of the log (`afterSeq`, `limit`), and an async iterable over every entry after `afterSeq`. Entries are
   * typed by `type`; a newer server may add types, so keep a default branch.
   */
  listEvents(
    sessionId: string,
    query?: SessionsListEventsQuery,
    options?: RequestOptions,
  ): PagePromise<SessionLogPage, SessionLogEvent>;
  /**
   * Sends events (a string is one `user.message`). Every event without an `idempotencyKey` gets one, generated once, so
   * the SDK's retries never append it twice.
   */
  send(
    sessionId: string,
    events: string | SendableEvent | SendableEvent[],
    options?: RequestOptions,
  ): ApiPromise<IngestAcknowledgement>;
  /** The live log over Server-Sent Events, resumed after dropped connections without gaps or repeats. */
  follow(sessionId: string, options: FollowOptions & { deltas: true }): AsyncGenerator<FollowItem, void, undefined>;
  follow(sessionId: string, options?: FollowOptions): AsyncGenerator<SessionLogEvent, void, undefined>;
  /** Follows one turn with live deltas (`onText`) and resolves with its final `agent.message`; see the README. */
  streamReply(sessionId: string, options?: StreamReplyOptions): Promise<StreamedReply>;
  /** Resolves with the `session.status_idle` entry that ends the current (or next) turn; see the README. */
  waitForIdle(sessionId: string, options?: WaitForIdleOptions): Promise<SessionStatusIdleEvent>;
  /** Answers a tool use that waits for confirmation (`requiresConfirmation: true`). */
  confirmToolUse(
    sessionId: string,
    toolUseId: string,
    result: "allow" | "deny",
    options?: RequestOptions & { denyMessage?: string },
  ): ApiPromise<IngestAcknowledgement>;
  /** Answers an `agent.custom_tool_use` with the tool's output (a string is one text part). */
  answerCustomTool(
    sessionId: string,
    customToolUseId: string,
    content: string | { type: "text"; text: string }[],
    options?: RequestOptions & { isError?: boolean },
  ): ApiPromise<IngestAcknowledgement>;
}

type UserEventInput = UserEvent;

export function sessionsResource(
  client: ResourceClient,
  generated: Record<string, unknown>,
  config: TransportConfig,
): SessionsResource {
  const base = generated as unknown as Generated & Pick<SessionsResource, "listEvents">;
  const ingest = (sessionId: string, events: UserEventInput[], options: RequestOptions = {}) =>
    base.ingestEvents(sessionId, { events: withIdempotencyKeys(events) }, options);
  const followClient = { config, projectId: client.projectId };
  const sessions: SessionsResource = {
    ...base,
    send(sessionId, events, options) {
      const list =
        typeof events === "string"
          ? [{ type: "user.message" as const, content: [{ type: "text" as const, text: events }] }]
          : Array.isArray(events)
            ? events
            : [events];
      return ingest(sessionId, list, options);
    },
    follow: ((sessionId: string, options?: FollowOptions) =>
      followSession(followClient, sessionId, options)) as SessionsResource["follow"],
    streamReply: (sessionId, options) => streamReply({ sessions, follow: followClient }, sessionId, options),
    waitForIdle: (sessionId, options) => waitForIdle({ sessions, follow: followClient }, sessionId, options),
    confirmToolUse(sessionId, toolUseId, result, options = {}) {
      const { denyMessage, ...requestOptions } = options;
      const event: UserEventInput = {
        type: "user.tool_confirmation",
        toolUseId,
        result,
        ...(denyMessage !== undefined ? { denyMessage } : {}),
      };
      return ingest(sessionId, [event], requestOptions);
    },
    answerCustomTool(sessionId, customToolUseId, content, options = {}) {
      const { isError, ...requestOptions } = options;
      const parts = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
      const event: UserEventInput = {
        type: "user.custom_tool_result",
        customToolUseId,
        content: parts,
        ...(isError !== undefined ? { isError } : {}),
      };
      return ingest(sessionId, [event], requestOptions);
    },
  };
  return sessions;
}
