import type { SessionDelta, SessionDeltaWithdrawn, SessionLogEvent } from "@agent-platform/sdk";

/** What a model call has written so far, from its `agent.delta` events (ephemeral: the log's entries replace it). */
export interface LiveReply {
  key: string;
  afterSeq: number;
  call: number;
  text: string;
  reasoning: string;
  tools: { id: string; name: string; input: string }[];
  /**
   * An output guardrail took the streamed text back (`agent.delta_withdrawn`): what was shown is dropped at once and
   * the row says so until the turn's entries arrive (a blocked reply is never written; a redacted one is, redacted).
   */
  withdrawn?: SessionDeltaWithdrawn["reason"];
}

/** Adds deltas, and withdrawals of what they wrote, to the replies being written (a new array when anything changed). Pure. */
export function addDeltas(
  replies: readonly LiveReply[],
  deltas: readonly (SessionDelta | SessionDeltaWithdrawn)[],
): LiveReply[] {
  const next = replies.map((r) => ({ ...r, tools: [...r.tools] }));
  for (const delta of deltas) {
    const key = `${delta.afterSeq}:${delta.call}`;
    let reply = next.find((r) => r.key === key);
    if (!reply) {
      reply = { key, afterSeq: delta.afterSeq, call: delta.call, text: "", reasoning: "", tools: [] };
      next.push(reply);
    }
    if (delta.type === "agent.delta_withdrawn") {
      Object.assign(reply, { text: "", reasoning: "", tools: [], withdrawn: delta.reason });
      continue;
    }
    // A late fragment of a withdrawn reply is not shown again.
    if (reply.withdrawn) continue;
    if (delta.kind === "text") reply.text += delta.delta;
    else if (delta.kind === "reasoning") reply.reasoning += delta.delta;
    else {
      const id = delta.toolCallId ?? "";
      const tool = reply.tools.find((t) => t.id === id);
      if (tool) tool.input += delta.delta;
      else reply.tools.push({ id, name: delta.toolName ?? "tool", input: delta.delta });
    }
  }
  return next;
}

/**
 * The replies still being written once `entries` arrived: a model call's entries (its message, tool uses, usage) or
 * the turn's end come after the `afterSeq` its deltas name, and replace what the deltas showed. A user's message sent
 * meanwhile does not end anything.
 */
export function settleReplies(replies: readonly LiveReply[], entries: readonly SessionLogEvent[]): LiveReply[] {
  let last = 0;
  for (const entry of entries) {
    if (entry.type.startsWith("agent.") || entry.type === "session.status_idle" || entry.type === "session.error") {
      last = Math.max(last, entry.seq);
    }
  }
  if (last === 0) return replies as LiveReply[];
  const left = replies.filter((r) => r.afterSeq >= last);
  return left.length === replies.length ? (replies as LiveReply[]) : left;
}
