import type { ReservedSlot } from "../../jobs/index.js";
import { claimedTurnRow, type LocalTurns, SESSION_TURN_KIND } from "../../sessions/index.js";
import type { LogCache } from "../loop/caches.js";

/**
 * Turn slots for ingestion (connected to the composition root's `LocalTurnsLink`): a slot of the runner's `session.turn` kind, with where the
 * runner's cached log of the session ends; a turn the ingestion statement claimed starts in it with the session as
 * that statement returned it (the pass's `preloaded` row).
 */
export function localTurns(reserve: (kind: string) => ReservedSlot | undefined, logCache: LogCache): LocalTurns {
  return (sessionId) => {
    const slot = reserve(SESSION_TURN_KIND);
    if (!slot) return undefined;
    return {
      token: slot.token,
      leaseMs: slot.leaseMs,
      cachedSeq: logCache.lastSeq(sessionId),
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
