import { useState } from "react";
import { ErrorNote } from "../components/query-state.js";
import type { PendingAction } from "./pending.js";
import { useSessionAction } from "./use-session-action.js";

/** Approve/deny a tool use that waits for confirmation, or answer a custom tool with its output. */
export function PendingActionForm({ sessionId, action }: { sessionId: string; action: PendingAction }) {
  const run = useSessionAction(sessionId);
  const [answer, setAnswer] = useState("");
  const [denyMessage, setDenyMessage] = useState("");
  if (action.kind === "confirmation") {
    return (
      <fieldset className="pending-action" aria-label={`Confirm ${action.name}`}>
        <legend>
          The agent waits for your decision on <strong>{action.name}</strong>.
        </legend>
        <button
          type="button"
          className="primary"
          disabled={run.isPending}
          onClick={() => run.mutate((c) => c.sessions.confirmToolUse(sessionId, action.toolUseId, "allow"))}
        >
          Approve
        </button>
        <input
          aria-label="Reason for denying (optional)"
          placeholder="Reason (optional)"
          value={denyMessage}
          onChange={(e) => setDenyMessage(e.target.value)}
        />
        <button
          type="button"
          disabled={run.isPending}
          onClick={() =>
            run.mutate((c) =>
              c.sessions.confirmToolUse(sessionId, action.toolUseId, "deny", denyMessage ? { denyMessage } : {}),
            )
          }
        >
          Deny
        </button>
        <ErrorNote error={run.error} />
      </fieldset>
    );
  }
  return (
    <form
      className="pending-action"
      aria-label={`Answer ${action.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        run.mutate((c) => c.sessions.answerCustomTool(sessionId, action.toolUseId, answer), {
          onSuccess: () => setAnswer(""),
        });
      }}
    >
      <label>
        Result of custom tool <strong>{action.name}</strong>
        <textarea value={answer} onChange={(e) => setAnswer(e.target.value)} rows={3} required />
      </label>
      <button type="submit" className="primary" disabled={run.isPending}>
        Send result
      </button>
      <ErrorNote error={run.error} />
    </form>
  );
}
