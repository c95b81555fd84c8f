import { apiErrorOf, ConnectionError } from "../errors.js";
import type { SessionDelta, SessionDeltaWithdrawn, SessionLogEvent } from "../generated/api.js";
import { fillPath } from "../request-path.js";
import { backoffDelay, sleep } from "../retry.js";
import { parseSse } from "../sse.js";
import { type TransportConfig, urlOf } from "../transport.js";

export interface FollowOptions {
  /** Start after this `seq` (default 0: the whole log). */
  afterSeq?: number;
  /** Stops the iteration (it ends quietly). */
  signal?: AbortSignal;
  /** Stop after yielding the first entry for which this returns true. */
  until?: (event: SessionLogEvent) => boolean;
  /** Failed reconnections in a row before giving up with a `ConnectionError`. Default 10. */
  maxReconnects?: number;
  /** Reconnect when nothing (not even the server's 15-second ping) arrived for this long. Default 45000 ms. */
  heartbeatTimeout?: number;
  /** The session's project, instead of the client's. */
  projectId?: string;
  /**
   * Also yield `agent.delta` events (the reply as the model writes it). Best effort and ephemeral: not log entries,
   * not replayed after a reconnection; the `agent.message` entry that follows is authoritative. An
   * `agent.delta_withdrawn` event says an output guardrail blocked or redacted the reply those deltas made: take the
   * streamed text back.
   */
  deltas?: boolean;
  /**
   * Told when the stream connects (`"open"`) and when it is lost and a reconnection is pending (`"reconnecting"`),
   * e.g. to show whether a view is live.
   */
  onConnection?: (state: "open" | "reconnecting") => void;
}

/** What a follower with `deltas: true` yields: log entries, live deltas and withdrawals (tell them apart by `type`). */
export type FollowItem = SessionLogEvent | SessionDelta | SessionDeltaWithdrawn;

export interface FollowClient {
  config: TransportConfig;
  projectId(options?: { projectId?: string }): Promise<string>;
}

const STREAM_PATH = "/v1/projects/:projectId/sessions/:id/events/stream";
const DEFAULT_MAX_RECONNECTS = 10;
const DEFAULT_HEARTBEAT_TIMEOUT_MS = 45_000;

function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Follows a session's log over Server-Sent Events. A dropped connection, a 5xx or 429 answer, a silent connection or
 * a server that ends the stream (shutdown, deploy) is followed by a reconnection with backoff and `Last-Event-ID`
 * set to the last `seq` yielded: every entry is yielded once, in `seq` order, without gaps.
 */
export function followSession(
  client: FollowClient,
  sessionId: string,
  options: FollowOptions & { deltas: true },
): AsyncGenerator<FollowItem, void, undefined>;
export function followSession(
  client: FollowClient,
  sessionId: string,
  options?: FollowOptions,
): AsyncGenerator<SessionLogEvent, void, undefined>;
export function followSession(
  client: FollowClient,
  sessionId: string,
  options: FollowOptions = {},
): AsyncGenerator<FollowItem, void, undefined> {
  return followItems(client, sessionId, options);
}

async function* followItems(
  client: FollowClient,
  sessionId: string,
  options: FollowOptions,
): AsyncGenerator<FollowItem, void, undefined> {
  const { config } = client;
  const projectId = await client.projectId(options);
  const path = fillPath(STREAM_PATH, { projectId, id: sessionId });
  const url = urlOf(config, path, options.deltas ? { deltas: "true" } : undefined);
  const maxReconnects = options.maxReconnects ?? DEFAULT_MAX_RECONNECTS;
  const heartbeatMs = options.heartbeatTimeout ?? DEFAULT_HEARTBEAT_TIMEOUT_MS;
  let lastSeq = options.afterSeq ?? 0;
  let failures = 0;
  let lastFailure: unknown;
  const userAborted = () => options.signal?.aborted === true;

  while (!userAborted()) {
    const attempt = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, attempt.signal]) : attempt.signal;
    let retryAfter: string | null = null;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const rearm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => attempt.abort(new Error(`no data for ${heartbeatMs} ms`)), heartbeatMs);
    };
    try {
      rearm();
      const response = await config.fetch(url, {
        headers: {
          ...config.headers,
          Authorization: `Bearer ${config.apiKey}`,
          Accept: "text/event-stream",
          "Last-Event-ID": String(lastSeq),
        },
        signal,
      });
      if (!response.ok || !response.body) {
        const error = await apiErrorOf(response);
        if (!isTransient(response.status)) throw error;
        lastFailure = error;
        retryAfter = response.headers.get("retry-after");
      } else {
        options.onConnection?.("open");
        for await (const message of parseSse(response.body, rearm)) {
          if (message.id === undefined) {
            // A live delta (no `id:`): passed on as is, never counted as a position.
            if (options.deltas && message.event === "agent.delta") yield JSON.parse(message.data) as SessionDelta;
            if (options.deltas && message.event === "agent.delta_withdrawn") {
              yield JSON.parse(message.data) as SessionDeltaWithdrawn;
            }
            continue;
          }
          const event = JSON.parse(message.data) as SessionLogEvent;
          failures = 0;
          if (event.seq <= lastSeq) continue;
          lastSeq = event.seq;
          // A slow consumer is not a silent server: the watchdog pauses while the entry is handled.
          clearTimeout(watchdog);
          yield event;
          if (options.until?.(event)) return;
          rearm();
        }
        lastFailure = new Error("the server ended the stream");
      }
    } catch (error) {
      if (userAborted()) return;
      if (!isTransportFailure(error, attempt.signal)) throw error;
      lastFailure = error;
    } finally {
      clearTimeout(watchdog);
      attempt.abort();
    }
    if (userAborted()) return;
    options.onConnection?.("reconnecting");
    if (++failures > maxReconnects) {
      throw new ConnectionError(`Lost ${url} after ${maxReconnects} reconnections`, { cause: lastFailure });
    }
    try {
      await sleep(backoffDelay(failures - 1, config.baseDelayMs, retryAfter), options.signal);
    } catch {
      return;
    }
  }
}

/** Network failures and our own watchdog's abort are retried; API errors and bugs are not. */
function isTransportFailure(error: unknown, attempt: AbortSignal): boolean {
  if (attempt.aborted) return true;
  return (
    error instanceof TypeError || (error as Error)?.name === "AbortError" || (error as Error)?.name === "SocketError"
  );
}
