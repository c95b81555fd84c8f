import { useState } from "react";
import { ErrorNote } from "../components/query-state.js";
import { useSessionAction } from "./use-session-action.js";

export function Composer({ sessionId, running }: { sessionId: string; running: boolean }) {
  const run = useSessionAction(sessionId);
  const [text, setText] = useState("");
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        if (!text.trim()) return;
        run.mutate((c) => c.sessions.send(sessionId, text), { onSuccess: () => setText("") });
      }}
    >
      <label htmlFor="message">Message</label>
      <textarea
        id="message"
        aria-describedby="message-hint"
        value={text}
        rows={3}
        placeholder={
          running ? "The agent is working; your message is read when it is" : "Write to the agent (Markdown)"
        }
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) e.currentTarget.form?.requestSubmit();
        }}
      />
      <button type="submit" className="primary" disabled={run.isPending || !text.trim()}>
        Send
      </button>
      <span id="message-hint" className="muted small">
        Ctrl+Enter (⌘+Enter) sends.
      </span>
      <ErrorNote error={run.error} />
    </form>
  );
}
