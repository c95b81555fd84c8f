import { TimeoutError } from "../errors.js";
import type { SessionStatusIdleEvent } from "../generated/api.js";
import type { RequestOptions } from "../transport.js";
import { type FollowClient, followSession } from "./follow.js";
import type { SessionsResource } from "./sessions-resource.js";

export interface WaitForIdleOptions {
  /**
   * Wait for the first `session.status_idle` after this `seq` (e.g. the `seq` of the event you sent, from `send`'s
   * acknowledgement). Without it: the log's last entry when it is one (the session is idle with nothing left to do),
   * else the next one.
   */
  afterSeq?: number;
  signal?: AbortSignal;
  /** Milliseconds to wait before rejecting with a `TimeoutError`. Default: no limit. */
  timeout?: number;
  projectId?: string;
}

interface Deps {
  sessions: Pick<SessionsResource, "get" | "listEvents">;
  follow: FollowClient;
}

/**
 * Resolves with the entry that ended a turn: `stopReason` says why (`end_turn`, `requires_action` with
 * `pendingActions`, `interrupted`, `max_turns`, or `error`, right after a `session.error` entry).
 */
export async function waitForIdle(
  deps: Deps,
  sessionId: string,
  options: WaitForIdleOptions = {},
): Promise<SessionStatusIdleEvent> {
  const timeout = options.timeout !== undefined ? AbortSignal.timeout(options.timeout) : undefined;
  const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length ? AbortSignal.any(signals) : undefined;
  const request: RequestOptions = {
    ...(signal ? { signal } : {}),
    ...(options.projectId ? { projectId: options.projectId } : {}),
  };
  try {
    let afterSeq = options.afterSeq;
    if (afterSeq === undefined) {
      const session = await deps.sessions.get(sessionId, request);
      if (session.lastSeq > 0) {
        const page = await deps.sessions.listEvents(sessionId, { afterSeq: session.lastSeq - 1, limit: 1 }, request);
        const last = page.data[0];
        if (last?.type === "session.status_idle") return last;
      }
      afterSeq = session.lastSeq;
    }
    const follow = followSession(deps.follow, sessionId, { ...request, afterSeq });
    for await (const event of follow) {
      if (event.type === "session.status_idle") return event;
    }
  } catch (error) {
    if (!timeout?.aborted || options.signal?.aborted) throw error;
  }
  if (options.signal?.aborted) throw options.signal.reason;
  throw new TimeoutError(`Session ${sessionId} did not become idle within ${options.timeout} ms`);
}
