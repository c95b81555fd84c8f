import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { Link, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { formatNumber, formatTime } from "../lib/format.js";
import { PendingActionForm } from "./pending-action.js";
import { StatusBadge } from "./session-list.js";
import { Timeline } from "./timeline.js";
import { timelineRows } from "./timeline-rows.js";
import { useDelegations } from "./use-delegations.js";
import { useSessionAction } from "./use-session-action.js";
import { useSessionLog } from "./use-session-log.js";

export default function SessionPage() {
  const { id = "" } = useParams();
  const client = useClient();
  const queries = useQueryClient();
  const session = useQuery({ queryKey: ["session", id], queryFn: () => client.sessions.get(id) });
  const log = useSessionLog(client, id);
  const rows = useMemo(() => timelineRows(log.entries), [log.entries]);
  const last = log.entries.at(-1);
  const childSessions = useDelegations(client, session.data, rows);

  // Status changes and answers come through the log: the record (status, pending actions) is read again then.
  useEffect(() => {
    if (!last) return;
    if (last.type.startsWith("session.status") || last.type.startsWith("user.")) {
      void queries.invalidateQueries({ queryKey: ["session", id] });
    }
  }, [last, id, queries]);

  const usage = useMemo(() => {
    let input = 0;
    let output = 0;
    let calls = 0;
    for (const entry of log.entries) {
      if (entry.type !== "agent.usage") continue;
      input += entry.inputTokens;
      output += entry.outputTokens;
      calls++;
    }
    return { input, output, calls };
  }, [log.entries]);

  return (
    <QueryState query={session}>
      {(s) => (
        <div className="session-page">
          <SessionHeader session={s} live={log.live} />
          <p className="muted">
            Agent <Link to={`/agents/${s.agent.id}`}>{s.agent.id}</Link> version {s.agent.version} · created{" "}
            {formatTime(s.createdAt)}
            {s.parentSessionId && (
              <>
                {" "}
                · delegated by <Link to={`/sessions/${s.parentSessionId}`}>{s.parentSessionId}</Link>
              </>
            )}{" "}
            · {formatNumber(usage.calls)} model calls, {formatNumber(usage.input)} input and{" "}
            {formatNumber(usage.output)} output tokens
          </p>
          <ErrorNote error={log.error} />
          {log.loading ? (
            <p className="loading">Loading the log…</p>
          ) : (
            <Timeline
              rows={rows}
              childSessions={childSessions}
              pending={s.pendingActions}
              renderPending={(action) => <PendingActionForm sessionId={id} action={action} />}
            />
          )}
          {!s.archivedAt && <Composer sessionId={id} running={s.status === "running"} />}
        </div>
      )}
    </QueryState>
  );
}

function SessionHeader({
  session,
  live,
}: {
  session: Awaited<ReturnType<ReturnType<typeof useClient>["sessions"]["get"]>>;
  live: boolean;
}) {
  const run = useSessionAction(session.id);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(session.title ?? "");
  return (
    <header className="page-header">
      {editing ? (
        <form
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
        <h1>{session.title ?? session.id}</h1>
      )}
      <StatusBadge status={session.status} stopReason={session.stopReason} waiting={session.pendingActions.length} />
      <span className={`badge ${live ? "running" : ""}`} title="Live updates from the event stream">
        {live ? "live" : "not live"}
      </span>
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
      {!session.archivedAt && (
        <button
          type="button"
          disabled={run.isPending}
          onClick={() => {
            if (window.confirm("Archive this session? It will refuse new events.")) {
              run.mutate((c) => c.sessions.archive(session.id));
            }
          }}
        >
          Archive
        </button>
      )}
      <ErrorNote error={run.error} />
    </header>
  );
}

function Composer({ sessionId, running }: { sessionId: string; running: boolean }) {
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
      <ErrorNote error={run.error} />
    </form>
  );
}
