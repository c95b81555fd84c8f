import type { Claim } from "../../jobs/index.js";
import type { StoredEvent } from "../../sessions/index.js";

/**
 * What delegation needs from whoever runs session turns (runtime/turns): run a child session here, or wait for the
 * worker that runs it. Handed to the delegation tools by the composition root.
 */
export interface SessionDriver {
  /** A lease for a child session created with its turn already claimed by this process (`insertClaimed`). */
  newChildLease(): { token: string; leaseMs: number };
  /**
   * Resolves once the session is settled (idle, nothing left to do): runs its turns in this process whenever they can
   * be claimed (or, with `claim`, the turn this process inserted already claimed), otherwise waits for the worker that
   * holds it. Rejects with the signal's reason when `signal` aborts; a turn running here then carries on by itself.
   */
  runUntilSettled(sessionId: string, signal: AbortSignal, claim?: Claim): Promise<void>;
  /** The whole log of a session. */
  readLog(sessionId: string): Promise<StoredEvent[]>;
}
