import type { Agent, Session } from "@agent-platform/sdk";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { PageHeading } from "../components/page-heading.js";
import { ErrorNote } from "../components/query-state.js";
import { formatNumber, formatTime, formatUsd } from "../lib/format.js";
import { StatusBadge } from "./status-badge.js";
import { useSessionAction } from "./use-session-action.js";
import type { StreamState } from "./use-session-log.js";

const STREAM_LABEL: Record<StreamState, string> = {
  loading: "loading",
  connecting: "connecting…",
  live: "live",
  reconnecting: "not live: reconnecting…",
  stopped: "not live",
};

/** Title, status, what the session is and cost, and what can be done to it as a whole. */
export function SessionHeader({
  session,
  agent,
  stream,
}: {
  session: Session;
  agent: Agent | undefined;
  stream: StreamState;
}) {
  const run = useSessionAction(session.id);
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(session.title ?? "");
  const { usage } = session;
  return (
    <>
      <header className="page-header">
        {editing ? (
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              run.mutate((c) => c.sessions.update(session.id, { title: title.trim() || null }), {
                onSuccess: () => setEditing(false),
              });
            }}
          >
            <label>
              Title <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
            </label>
            <button type="submit">Save</button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <PageHeading title={session.title ?? session.id} />
        )}
        <StatusBadge status={session.status} stopReason={session.stopReason} waiting={session.pendingActions.length} />
        <span
          className={`badge ${stream === "live" ? "running" : stream === "reconnecting" ? "waiting" : ""}`}
          title="Live updates from the event stream"
          role="status"
        >
          {STREAM_LABEL[stream]}
        </span>
        {session.outcome && (
          <span
            className={`badge ${session.outcome.state === "passed" ? "pass" : session.outcome.state === "failed" ? "fail" : "pending"}`}
          >
            outcome {session.outcome.state}
          </span>
        )}
        {session.archivedAt && <span className="badge">archived {formatTime(session.archivedAt)}</span>}
        <span className="spacer" />
        {!editing && (
          <button type="button" onClick={() => setEditing(true)}>
            Rename
          </button>
        )}
        {session.status === "running" && (
          <button
            type="button"
            disabled={run.isPending}
            onClick={() => run.mutate((c) => c.sessions.send(session.id, { type: "user.interrupt" }))}
          >
            Interrupt
          </button>
        )}
        {session.archivedAt ? (
          <button
            type="button"
            disabled={run.isPending}
            onClick={() => run.mutate((c) => c.sessions.unarchive(session.id))}
          >
            Unarchive
          </button>
        ) : (
          <button
            type="button"
            disabled={run.isPending}
            onClick={() => {
              if (window.confirm("Archive this session? It will refuse new events until unarchived.")) {
                run.mutate((c) => c.sessions.archive(session.id));
              }
            }}
          >
            Archive
          </button>
        )}
        <button
          type="button"
          className="danger"
          disabled={run.isPending}
          onClick={() => {
            if (window.confirm("Delete this session and its whole log? This cannot be undone.")) {
              run.mutate((c) => c.sessions.remove(session.id), { onSuccess: () => navigate("/sessions") });
            }
          }}
        >
          Delete
        </button>
        <ErrorNote error={run.error} />
      </header>
      <p className="muted">
        Agent <Link to={`/agents/${session.agent.id}`}>{agent?.name ?? session.agent.id}</Link> version{" "}
        {session.agent.version} · created {formatTime(session.createdAt)}
        {session.parentSessionId && (
          <>
            {" "}
            · delegated by <Link to={`/sessions/${session.parentSessionId}`}>{session.parentSessionId}</Link>
          </>
        )}
        {session.forkedFrom && (
          <>
            {" "}
            · forked from <Link to={`/sessions/${session.forkedFrom.sessionId}`}>{session.forkedFrom.sessionId}</Link>{" "}
            at entry {session.forkedFrom.seq}
          </>
        )}{" "}
        · {formatNumber(usage.inputTokens)} input and {formatNumber(usage.outputTokens)} output tokens ·{" "}
        <span title="Estimated from the model catalogue's prices">
          {usage.costUsd === null ? "cost unknown (a model without a price)" : `cost ${formatUsd(usage.costUsd)}`}
        </span>
      </p>
    </>
  );
}
