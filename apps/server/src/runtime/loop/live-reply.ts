import type { CallModelOptions } from "../../models/index.js";
import { liveReply } from "../../sessions/index.js";
import type { LogState } from "./log-state.js";
import type { SessionPass } from "./pass.js";

/**
 * The streaming options of a model call when a follower somewhere asked for the session's deltas (the call is then
 * streamed and its fragments published); none otherwise, so the call stays one request and one response.
 */
export function liveReplyFor(
  pass: SessionPass,
  state: LogState,
): { options: Pick<CallModelOptions, "onTextDelta" | "onDelta">; close(): Promise<void> } | undefined {
  const reply = liveReply(pass.deps.ctx, pass.info.id, { afterSeq: state.lastSeq, call: state.modelCallsInTurn + 1 });
  if (!reply) return undefined;
  return {
    options: {
      onTextDelta: (delta) => reply.push({ kind: "text", delta }),
      onDelta: (delta) => reply.push(delta),
    },
    close: () => reply.close(),
  };
}
