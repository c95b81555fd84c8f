import type { SessionEvent } from "@agent-platform/contract";
import { ApiError, ConnectionError } from "./api-error.js";
import type { ClientOptions } from "./client.js";
import { backoffDelay, sleep } from "./retry.js";
import { parseSse } from "./sse.js";

export interface FollowOptions {
  projectId: string;
  sessionId: string;
  /** Start after this `seq` (default 0: the whole log). */
  afterSeq?: number;
  signal?: AbortSignal;
  /** Stop after yielding the first event for which this returns true. */
  until?: (event: SessionEvent) => boolean;
  /** Reconnection attempts in a row before giving up. Default 10. */
  maxReconnects?: number;
}

/**
 * Follows a session's log over Server-Sent Events, reconnecting with `Last-Event-ID` after a dropped connection, so
 * every entry is yielded exactly once and in `seq` order.
 */
export async function* followSessionEvents(
  client: Pick<ClientOptions, "baseUrl" | "apiKey" | "fetch" | "headers">,
  options: FollowOptions,
): AsyncGenerator<SessionEvent, void, undefined> {
  const doFetch = client.fetch ?? fetch;
  const url = `${client.baseUrl.replace(/\/+$/, "")}/v1/projects/${encodeURIComponent(options.projectId)}/sessions/${encodeURIComponent(options.sessionId)}/events/stream`;
  let lastSeq = options.afterSeq ?? 0;
  let failures = 0;
  const maxReconnects = options.maxReconnects ?? 10;
  while (!options.signal?.aborted) {
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: {
          ...client.headers,
          Authorization: `Bearer ${client.apiKey}`,
          Accept: "text/event-stream",
          "Last-Event-ID": String(lastSeq),
        },
        signal: options.signal,
      });
    } catch (error) {
      if (options.signal?.aborted) return;
      if (++failures > maxReconnects) throw new ConnectionError(`Cannot follow ${url}`, { cause: error });
      await sleep(backoffDelay(failures - 1, 250, null), options.signal).catch(() => {});
      continue;
    }
    if (!response.ok || !response.body) {
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {}
      throw ApiError.fromResponse(response.status, body, response.headers.get("x-request-id"));
    }
    try {
      for await (const message of parseSse(response.body)) {
        failures = 0;
        const event = JSON.parse(message.data) as SessionEvent;
        if (event.seq <= lastSeq) continue;
        lastSeq = event.seq;
        yield event;
        if (options.until?.(event)) return;
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      if (++failures > maxReconnects) throw new ConnectionError(`Lost ${url}`, { cause: error });
    }
    // The server ended the stream (shutdown, deploy): resume where we were.
    await sleep(backoffDelay(Math.max(failures - 1, 0), 250, null), options.signal).catch(() => {});
  }
}
