// The session log's owner: every statement on `sessions`, `session_events`, `session_loop_settings` and the
// `session.turn` job row is in this folder. What other folders (the sessions routes, the agent runtime, automations,
// experiments, workspaces) may use of it: typed functions, no SQL.
export {
  type CommitPlan,
  type Committed,
  type CommittedSession,
  type CommittedUsage,
  commitFenced,
  type ExpectedHead,
  type IdleHook,
  type Lease,
  leaseLost,
  SessionGone,
  type StatusChange,
} from "./commit-fenced.js";
export {
  appendEvents,
  type EventRow,
  type NewEvent,
  readEvents,
  SESSION_EVENTS_CHANNEL,
  type StoredEvent,
  toWireEvent,
} from "./event-log.js";
export { type ForkPoint, insertFork, type NewFork, readForkPoint } from "./fork-log.js";
export { type HistoryTurn, historyEvents, historyLength } from "./history-events.js";
export { type IngestResult, type InputScreenOf, ingestEvents } from "./ingest-events.js";
export { insertChildSession, insertSession, insertUnbudgetedSession, type NewSession } from "./insert-session.js";
export { claimedTurnRow, type LoopSessionRow, loadLoopSession, sessionTurnPreload } from "./load-turn.js";
export {
  type ClaimedTurn,
  type LocalTurnSlot,
  type LocalTurns,
  type LocalTurnsLink,
  localTurnsLink,
} from "./local-turns.js";
export {
  DEFAULT_LOOP_SETTINGS,
  loadSessionLoopSettings,
  type OutcomeDefinition,
  type SessionLoopSettings,
  saveSessionLoopSettings,
} from "./loop-settings.js";
export { initialOutcome } from "./outcome-state.js";
export { archiveSession, deleteSession, renameSession, unarchiveSession } from "./session-admin.js";
export { sessionAtWork } from "./session-at-work.js";
export {
  childOfToolUse,
  delegationRootOf,
  delegationsUnder,
  entryAfter,
  existingSessionIds,
  isChildSession,
  lockSessionAtRest,
  sessionEnvironment,
} from "./session-lookups.js";
export { getSession, listSessionEvents, listSessionEventsJson, listSessions } from "./session-queries.js";
export { type ExecutionSettings, type SessionRow, toSession } from "./session-row.js";
export { readTurnForCase, type TurnForCase } from "./turn-for-case.js";
export { requestTurn, SESSION_TURN_JOB, SESSION_TURN_KIND, turnDueInMs } from "./turn-job.js";
export { projectUsageByDay } from "./usage-by-day.js";
export type { StoredInputScreen } from "./user-events.js";
