import type { NewEvent } from "./event-log.js";

/** Earlier messages a new session starts with (a multi-turn experiment case's `conversation`). */
export interface HistoryTurn {
  role: "user" | "assistant";
  text: string;
}

const text = (value: string) => ({ content: [{ type: "text", text: value }] });

/**
 * The log entries of a conversation given up front, as finished turns: a user message is a `user.message`; an
 * assistant message is a turn that answered it (`session.status_running`, `agent.message`, `session.status_idle`
 * `end_turn`), with no `agent.usage` since no model call of this session produced it.
 */
export function historyEvents(history: readonly HistoryTurn[]): NewEvent[] {
  return history.flatMap((turn): NewEvent[] =>
    turn.role === "user"
      ? [{ type: "user.message", payload: text(turn.text) }]
      : [
          { type: "session.status_running", payload: {} },
          { type: "agent.message", payload: text(turn.text) },
          { type: "session.status_idle", payload: { stopReason: "end_turn" } },
        ],
  );
}

/** How many entries `historyEvents` writes: the new input follows at `historyLength + 1`. */
export function historyLength(history: readonly HistoryTurn[]): number {
  return history.reduce((n, turn) => n + (turn.role === "user" ? 1 : 3), 0);
}
