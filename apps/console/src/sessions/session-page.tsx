import type { SessionLogEvent } from "@agent-platform/sdk";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { ArtifactsPanel } from "./artifacts-panel.js";
import { Composer } from "./composer.js";
import { ContextPanel } from "./context-panel.js";
import { EntryActions } from "./entry-actions.js";
import { PendingActionForm } from "./pending-action.js";
import { SessionHeader } from "./session-header.js";
import { Timeline } from "./timeline.js";
import { stepDurations, type TimelineRow, timelineRows } from "./timeline-rows.js";
import { useDelegations } from "./use-delegations.js";
import { useSessionLog } from "./use-session-log.js";

type Panel = "artifacts" | "context" | undefined;

export default function SessionPage() {
  const { id = "" } = useParams();
  const client = useClient();
  const queries = useQueryClient();
  const session = useQuery({ queryKey: ["session", id], queryFn: () => client.sessions.get(id) });
  const agentRef = session.data?.agent;
  const agent = useQuery({
    queryKey: ["agent", agentRef?.id, "version", agentRef?.version],
    queryFn: () => client.agents.get(agentRef!.id, { version: agentRef!.version }),
    enabled: agentRef !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const log = useSessionLog(client, id);
  const rows = useMemo(() => timelineRows(log.entries), [log.entries]);
  const durations = useMemo(() => stepDurations(log.entries), [log.entries]);
  const turnStarts = useMemo(() => previousTurnEnds(log.entries), [log.entries]);
  const last = log.entries.at(-1);
  const childSessions = useDelegations(client, session.data, rows);
  const [panel, setPanel] = useState<Panel>();
  const toolResults = useMemo(() => log.entries.filter((e) => e.type === "agent.tool_result").length, [log.entries]);

  // Status changes and answers come through the log: the record (status, pending actions, usage) is read again then.
  useEffect(() => {
    if (!last) return;
    if (last.type.startsWith("session.status") || last.type.startsWith("user.") || last.type === "agent.usage") {
      void queries.invalidateQueries({ queryKey: ["session", id], exact: true });
    }
  }, [last, id, queries]);

  const s = session.data;
  const actionsFor = useCallback(
    (row: TimelineRow) => {
      if (!s || row.kind === "tool") return null;
      if (row.kind === "message" && row.role === "user") {
        return (
          <EntryActions
            session={s}
            seq={row.entry.seq}
            message={row.text}
            forkBeforeSeq={turnStarts.get(row.entry.seq) ?? 0}
          />
        );
      }
      if (row.kind === "event" && row.entry.type === "session.status_idle") {
        return (
          <div className="actions-row">
            <EntryActions session={s} seq={row.entry.seq} />
          </div>
        );
      }
      return null;
    },
    [s, turnStarts],
  );

  return (
    <QueryState query={session}>
      {(record) => (
        <div className="session-page">
          <SessionHeader session={record} agent={agent.data} stream={log.stream} />
          <ErrorNote error={log.error} />
          <div className="tabs">
            <button
              type="button"
              aria-pressed={panel === "artifacts"}
              onClick={() => setPanel(panel === "artifacts" ? undefined : "artifacts")}
            >
              Artifacts
            </button>
            <button
              type="button"
              aria-pressed={panel === "context"}
              onClick={() => setPanel(panel === "context" ? undefined : "context")}
            >
              What the model is sent
            </button>
          </div>
          <div className="session-body">
            <div className="timeline-column">
              {log.loading ? (
                <p className="loading">Loading the log…</p>
              ) : (
                <Timeline
                  rows={rows}
                  replies={log.replies}
                  durations={durations}
                  childSessions={childSessions}
                  pending={record.pendingActions}
                  renderPending={(action) => <PendingActionForm sessionId={id} action={action} />}
                  actionsFor={actionsFor}
                  provisional={agent.data?.guardrails?.some((g) => g.stage === "output") ?? false}
                />
              )}
              {!record.archivedAt && <Composer sessionId={id} running={record.status === "running"} />}
            </div>
            {panel && (
              <aside className="side-panel" aria-label={panel === "artifacts" ? "Artifacts" : "What the model is sent"}>
                {panel === "artifacts" ? (
                  <ArtifactsPanel sessionId={id} version={toolResults} />
                ) : (
                  <ContextPanel agent={agent.data} entries={log.entries} />
                )}
              </aside>
            )}
          </div>
        </div>
      )}
    </QueryState>
  );
}

/** For each user message, the end of the turn before it (0 when none): where an edited message forks from. */
function previousTurnEnds(entries: readonly SessionLogEvent[]): Map<number, number> {
  const ends = new Map<number, number>();
  let lastIdle = 0;
  for (const entry of entries) {
    if (entry.type === "session.status_idle") lastIdle = entry.seq;
    else if (entry.type === "user.message") ends.set(entry.seq, lastIdle);
  }
  return ends;
}
