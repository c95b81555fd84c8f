import type { AgentPlatform, SessionLogEvent } from "@agent-platform/sdk";
import { useEffect, useState } from "react";

export interface SessionLog {
  entries: SessionLogEvent[];
  loading: boolean;
  error: unknown;
  /** The live stream is connected (false while loading, after an error, or once the page leaves). */
  live: boolean;
}

const PAGE = 500;

/**
 * The whole log, then the live tail: pages of `listEvents` up to the newest entry, then the SDK's follower from that
 * `seq` (it resumes dropped streams without gaps or repeats). Entries that arrive in one frame are appended in one
 * state update, so that a burst re-renders the timeline once.
 */
export function useSessionLog(client: AgentPlatform, sessionId: string): SessionLog {
  const [state, setState] = useState<SessionLog>({ entries: [], loading: true, error: undefined, live: false });

  useEffect(() => {
    const abort = new AbortController();
    let pending: SessionLogEvent[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending;
      pending = [];
      setState((s) => ({ ...s, entries: s.entries.concat(batch) }));
    };
    const append = (entry: SessionLogEvent) => {
      pending.push(entry);
      if (!frame) frame = requestAnimationFrame(flush);
    };
    setState({ entries: [], loading: true, error: undefined, live: false });

    (async () => {
      let afterSeq = 0;
      const loaded: SessionLogEvent[] = [];
      for (;;) {
        const page = await client.sessions.listEvents(sessionId, { afterSeq, limit: PAGE }, { signal: abort.signal });
        loaded.push(...page.data);
        afterSeq = page.nextAfterSeq;
        if (!page.hasMore) break;
      }
      if (abort.signal.aborted) return;
      setState({ entries: loaded, loading: false, error: undefined, live: true });
      for await (const entry of client.sessions.follow(sessionId, { afterSeq, signal: abort.signal })) append(entry);
    })().catch((error: unknown) => {
      if (abort.signal.aborted) return;
      setState((s) => ({ ...s, loading: false, live: false, error }));
    });

    return () => {
      abort.abort();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [client, sessionId]);

  return state;
}
