import type { AppContext } from "../../context.js";
import { readEvents, type StoredEvent } from "../../sessions/index.js";
import { analyzeLog } from "../loop/log-state.js";

/** Idle and nothing left to do: no open turn, and no input the loop still has to handle. */
export function isSettled(events: readonly StoredEvent[]): boolean {
  const state = analyzeLog(events);
  return !state.turnOpen && ["none", "finish", "await_actions"].includes(state.next.kind);
}

/** The whole log of a session. */
export async function readAll(ctx: AppContext, sessionId: string): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (;;) {
    const page = await readEvents(ctx.db.pool, sessionId, out.length > 0 ? out[out.length - 1]!.seq : 0, 5_000);
    out.push(...page);
    if (page.length < 5_000) return out;
  }
}
