import type { EventRow, NewEvent } from "./event-log.js";
import type { SessionLoopSettings } from "./loop-settings.js";
import type { SessionRow } from "./session-row.js";

/**
 * A turn slot of this process's job runner, held while a user event is ingested: when the session had no pending
 * turn and the runner's cached log ends where the append begins, the ingestion statement inserts the turn's job
 * already leased to `token` and the turn starts here at once (no notification, no claim, no load). Otherwise the slot
 * is given back and the turn is requested as usual. Only the first of `start` and `release` counts.
 */
export interface LocalTurnSlot {
  readonly token: string;
  readonly leaseMs: number;
  /** The `seq` the runner's cached log of the session ends at (0: nothing cached). */
  readonly cachedSeq: number;
  /**
   * Whether the turn, were `events` appended right after the cached log, would first open (`session.status_running`,
   * before anything else the loop writes): the ingestion statement that claims it then opens it too.
   */
  opensTurn(events: readonly NewEvent[]): boolean;
  start(turn: ClaimedTurn): void;
  release(): void;
}

/** What the ingestion statement that claimed a turn read and wrote, for the turn to start from. */
export interface ClaimedTurn {
  generation: string;
  traceparent: string | null;
  session: SessionRow;
  settings: SessionLoopSettings | null;
  /** The session's `lastSeq` before the append (`cachedSeq`). */
  base: number;
  /** The entries appended, in order (the events, then `session.status_running` when the statement opened the turn). */
  appended: EventRow[];
}

/** Holds a turn slot for the session, if this process runs turns and has one free. */
export type LocalTurns = (sessionId: string) => LocalTurnSlot | undefined;

/**
 * Where ingestion finds this process's turn slots: made by the composition root and handed to what ingests user
 * events; the job runner's wiring connects it while the runner runs (`ROLE=all`). Unconnected, every turn is
 * requested through the queue.
 */
export interface LocalTurnsLink {
  readonly slotFor: LocalTurns;
  connect(turns: LocalTurns): void;
  disconnect(): void;
}

export function localTurnsLink(): LocalTurnsLink {
  let current: LocalTurns | undefined;
  return {
    slotFor: (sessionId) => current?.(sessionId),
    connect(turns) {
      current = turns;
    },
    disconnect() {
      current = undefined;
    },
  };
}
