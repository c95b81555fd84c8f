import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useClient } from "../auth/session.js";
import { ErrorNote } from "../components/query-state.js";

/** Starts a session of the agent's current version with a first message, and opens it. */
export function StartSession({ agentId }: { agentId: string }) {
  const client = useClient();
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const start = useMutation({
    mutationFn: () =>
      client.sessions.create({
        agent: agentId,
        events: [{ type: "user.message", content: [{ type: "text", text }] }],
      }),
    onSuccess: (session) => navigate(`/sessions/${session.id}`),
  });
  return (
    <form
      className="start-session"
      aria-label="Start a session"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) start.mutate();
      }}
    >
      <label htmlFor="first-message">Start a session with a first message</label>
      <input id="first-message" value={text} onChange={(e) => setText(e.target.value)} placeholder="Hello!" />
      <button type="submit" className="primary" disabled={start.isPending || !text.trim()}>
        Start session
      </button>
      <ErrorNote error={start.error} />
    </form>
  );
}
