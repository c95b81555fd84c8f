/**
 * Process-wide counters of the agent loop (cumulative since start), for operators and `pnpm bench`: how much time the
 * loop spent waiting on model calls, next to how many calls and turns it ran.
 */
export const loopMetrics = {
  /** Model calls made (successful or not). */
  modelCalls: 0,
  /** Milliseconds spent inside `callModel` (provider request, streaming and the model client's own work). */
  modelCallMs: 0,
  /** Turns ended (`session.status_idle` written by the loop). */
  turnsEnded: 0,
  /** Milliseconds spent inside worker passes (from loading the session to its last write), model calls included. */
  passMs: 0,
};
