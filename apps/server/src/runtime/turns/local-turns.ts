import type { ReservedSlot } from "../../jobs/index.js";
import {
  claimedTurnRow,
  type LocalTurns,
  type NewEvent,
  SESSION_TURN_KIND,
  type StoredEvent,
} from "../../sessions/index.js";
import type { LogCache } from "../loop/caches.js";
import { analyzeLog, opensTurnFirst } from "../loop/log-state.js";

/**
 * Turn slots for ingestion (connected to the composition root's `LocalTurnsLink`): a slot of the runner's `session.turn` kind, with where the
 * runner's cached log of the session ends; a turn the ingestion statement claimed starts in it with the session as
 * that statement returned it (the pass's `preloaded` row).
 */
export function localTurns(reserve: (kind: string) => ReservedSlot | undefined, logCache: LogCache): LocalTurns {
  return (sessionId) => {
    const slot = reserve(SESSION_TURN_KIND);
    if (!slot) return undefined;
    const cached = logCache.peek(sessionId);
    const cachedSeq = cached.at(-1)?.seq ?? 0;
    return {
      token: slot.token,
      leaseMs: slot.leaseMs,
      cachedSeq,
      // Asked before the statement runs, which claims the turn only if the log still ends at `cachedSeq`.
      opensTurn: (events) =>
        opensTurnFirst(analyzeLog([...cached, ...events.map((e, i) => entryOf(e, cachedSeq + 1 + i))])),
      start: (turn) =>
        slot.run({
          kind: SESSION_TURN_KIND,
          key: sessionId,
          token: slot.token,
          payload: {},
          generation: turn.generation,
          attempts: 1,
          lastError: null,
          traceparent: turn.traceparent,
          preloaded: claimedTurnRow(turn),
        }),
      release: () => slot.release(),
    };
  };
}

/** An event as the log entry it would be at `seq` (what the log's analysis reads of it). */
function entryOf(event: NewEvent, seq: number): StoredEvent {
  return { ...event.payload, seq, id: event.id ?? "", type: event.type, createdAt: "" };
}
