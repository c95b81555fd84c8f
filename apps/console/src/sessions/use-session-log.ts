import type { AgentPlatform, SessionDelta, SessionDeltaWithdrawn, SessionLogEvent } from "@agent-platform/sdk";
import { useEffect, useState } from "react";
import { addDeltas, type LiveReply, settleReplies } from "./live-reply.js";

export type StreamState = "loading" | "connecting" | "live" | "reconnecting" | "stopped";

export interface SessionLog {
  entries: SessionLogEvent[];
  /** What the model is writing now (deltas), until its entries arrive. */
  replies: LiveReply[];
  loading: boolean;
  error: unknown;
  /** `live` only while the event stream is connected: a dropped stream shows at once, not at the next entry. */
  stream: StreamState;
}

const PAGE = 500;

/**
 * The whole log, then the live tail: pages of `listEvents` up to the newest entry, then the SDK's follower from that
 * `seq` with live deltas (it resumes dropped streams without gaps or repeats, and says when it is connected).
 * Entries and deltas that arrive in one frame are applied in one state update, so a burst re-renders the timeline once.
 */
export function useSessionLog(client: AgentPlatform, sessionId: string): SessionLog {
  const [state, setState] = useState<SessionLog>(initial);

  useEffect(() => {
    const abort = new AbortController();
    let entries: SessionLogEvent[] = [];
    let deltas: (SessionDelta | SessionDeltaWithdrawn)[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const [batch, fragments] = [entries, deltas];
      [entries, deltas] = [[], []];
      setState((s) => {
        const replies = settleReplies(fragments.length ? addDeltas(s.replies, fragments) : s.replies, batch);
        return { ...s, entries: batch.length ? s.entries.concat(batch) : s.entries, replies };
      });
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(flush);
    };
    setState(initial);

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
      setState({ entries: loaded, replies: [], loading: false, error: undefined, stream: "connecting" });
      const follow = client.sessions.follow(sessionId, {
        afterSeq,
        signal: abort.signal,
        deltas: true,
        onConnection: (connection) =>
          setState((s) => ({ ...s, stream: connection === "open" ? "live" : "reconnecting" })),
      });
      for await (const item of follow) {
        // Deltas and their withdrawal (an output guardrail took the text back) are not log entries.
        if (item.type === "agent.delta") deltas.push(item as SessionDelta);
        else if (item.type === "agent.delta_withdrawn") deltas.push(item as SessionDeltaWithdrawn);
        else entries.push(item as SessionLogEvent);
        schedule();
      }
    })().catch((error: unknown) => {
      if (abort.signal.aborted) return;
      setState((s) => ({ ...s, loading: false, stream: "stopped", error }));
    });

    return () => {
      abort.abort();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [client, sessionId]);

  return state;
}

const initial: SessionLog = { entries: [], replies: [], loading: true, error: undefined, stream: "loading" };
