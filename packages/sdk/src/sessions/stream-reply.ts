import type {
  AgentMessageEvent,
  SessionDelta,
  SessionDeltaWithdrawn,
  SessionStatusIdleEvent,
} from "../generated/api.js";
import { type FollowClient, followSession } from "./follow.js";
import type { SessionsResource } from "./sessions-resource.js";

export interface StreamReplyOptions {
  /** Follow the turn after this `seq` (e.g. the `seq` of the message you sent). Default: the log's current end. */
  afterSeq?: number;
  /** Called with each text fragment and the text of the current model call so far (to render it as it grows). */
  onText?: (delta: string, snapshot: string) => void;
  /** Called with every delta (text, reasoning, tool-call input). */
  onDelta?: (delta: SessionDelta) => void;
  /**
   * Called when an output guardrail blocked or redacted the reply being streamed: remove the text shown so far (a
   * redacted reply then arrives as its `agent.message`; a blocked one never does).
   */
  onWithdrawn?: (withdrawn: SessionDeltaWithdrawn) => void;
  signal?: AbortSignal;
  projectId?: string;
}

export interface StreamedReply {
  /** The turn's last `agent.message` entry (authoritative), or null when the turn ended without one. */
  message: AgentMessageEvent | null;
  /** The text the deltas of that message's model call added up to (equal to its text unless deltas were dropped). */
  text: string;
  /** The `session.status_idle` entry that ended the turn. */
  idle: SessionStatusIdleEvent;
}

interface Deps {
  sessions: Pick<SessionsResource, "get">;
  follow: FollowClient;
}

/**
 * Follows one turn with live deltas, in the manner of the OpenAI and Anthropic SDKs' stream helpers: `onText` sees the
 * reply as it is written, and the promise resolves, once the turn ends, with its final `agent.message` entry. Uses
 * only `fetch` and web streams, so it runs in browsers too.
 */
export async function streamReply(
  deps: Deps,
  sessionId: string,
  options: StreamReplyOptions = {},
): Promise<StreamedReply> {
  const request = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.projectId ? { projectId: options.projectId } : {}),
  };
  const afterSeq = options.afterSeq ?? (await deps.sessions.get(sessionId, request)).lastSeq;
  let call = "";
  let snapshot = "";
  let message: AgentMessageEvent | null = null;
  let text = "";
  for await (const item of followSession(deps.follow, sessionId, { ...request, afterSeq, deltas: true })) {
    if (item.type === "agent.delta") {
      const delta = item as SessionDelta;
      options.onDelta?.(delta);
      if (delta.kind !== "text") continue;
      const key = `${delta.afterSeq}:${delta.call}`;
      if (key !== call) {
        call = key;
        snapshot = "";
      }
      snapshot += delta.delta;
      options.onText?.(delta.delta, snapshot);
    } else if (item.type === "agent.delta_withdrawn") {
      options.onWithdrawn?.(item as SessionDeltaWithdrawn);
      snapshot = "";
    } else if (item.type === "agent.message") {
      message = item as AgentMessageEvent;
      text = snapshot;
      snapshot = "";
      call = "";
    } else if (item.type === "session.status_idle") {
      return { message, text, idle: item as SessionStatusIdleEvent };
    }
  }
  throw options.signal?.reason ?? new Error("the stream ended before the turn did");
}
