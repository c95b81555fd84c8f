// What other folders (the agent runtime, automations, experiments) may use of the sessions area.
export { createSession, insertSession, type NewSession } from "./create-session.js";
export {
  appendEvents,
  EVENT_CREATED_AT,
  type EventRow,
  eventsAfterJsonSql,
  type NewEvent,
  readEvents,
  type StoredEvent,
  toWireEvent,
} from "./event-log.js";
export { subscribeSessionEvents } from "./event-notifier.js";
export { ingestEvents } from "./ingest-events.js";
export type { ClaimedTurn, LocalTurnSlot, LocalTurns } from "./local-turns.js";
export {
  DEFAULT_LOOP_SETTINGS,
  loadSessionLoopSettings,
  loopSettingsJsonSql,
  type SessionLoopSettings,
  saveSessionLoopSettings,
} from "./loop-settings.js";
export { recentEvents } from "./recent-events.js";
export { requestTurn, SESSION_TURN_KIND } from "./request-turn.js";
export { type ExecutionSettings, resolveExecutionSettings } from "./resolve-execution.js";
export { sessionAtWork } from "./session-at-work.js";
