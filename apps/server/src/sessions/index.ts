// What other folders (the agent runtime, automations, experiments, workspaces) may use of the sessions area: the use
// cases, and the session log (`log/`, the one owner of every write to a session).
export { createSession } from "./create-session.js";
export { announceProcessStart, subscribeSessionEvents } from "./event-notifier.js";
export {
  followSessionDeltas,
  type LiveReply,
  liveReply,
  watchDeltaFollowers,
  withdrawLiveReply,
} from "./live-deltas.js";
export * from "./log/index.js";
export { recentEvents } from "./recent-events.js";
export { resolveExecutionSettings } from "./resolve-execution.js";
