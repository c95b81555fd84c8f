import type { Automation } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { formatTime } from "../lib/format.js";
import { NextRun } from "./next-run.js";

export default function AutomationPage() {
  const { id = "" } = useParams();
  const client = useClient();
  const automation = useQuery({ queryKey: ["automation", id], queryFn: () => client.automations.get(id) });
  const runs = usePagedList(
    ["automation", id, "runs"],
    (cursor) => client.automations.listRuns(id, { limit: 100, ...(cursor ? { cursor } : {}) }),
    { refreshMs: 3_000 },
  );
  return (
    <QueryState query={automation}>
      {(a) => (
        <>
          <AutomationHeader automation={a} />
          <dl className="facts">
            <dt>Agent</dt>
            <dd>
              <Link to={`/agents/${a.agentId}`}>{a.agentId}</Link>
              {a.agentVersion ? ` version ${a.agentVersion}` : " (current version)"}
            </dd>
            <dt>Trigger</dt>
            <dd>
              {a.trigger.type === "schedule"
                ? `${a.scheduleDescription ?? a.trigger.cron} (${a.trigger.cron}, ${a.trigger.timezone}, overlap ${a.trigger.overlap})`
                : "manual: fires only when run"}
            </dd>
            <dt>Next firing</dt>
            <dd>
              <NextRun automation={a} />
            </dd>
            <dt>Prompt</dt>
            <dd>
              <pre>{a.prompt}</pre>
            </dd>
          </dl>
          <section aria-labelledby="runs-heading">
            <h2 id="runs-heading">Runs</h2>
            <QueryState query={runs.query}>
              {() =>
                runs.items.length === 0 ? (
                  <p className="muted">No run yet: press “Run now”, or wait for the schedule.</p>
                ) : (
                  <>
                    <ol className="runs" aria-label="Runs, newest first">
                      {runs.items.map((run) => (
                        <li key={run.id} className={run.status === "error" ? "failed" : undefined}>
                          <time dateTime={run.createdAt}>{formatTime(run.createdAt)}</time>{" "}
                          <span className="badge">{run.triggerKind}</span>{" "}
                          {run.sessionId ? (
                            <>
                              <Link to={`/sessions/${run.sessionId}`}>session</Link>{" "}
                              <span className={`badge ${run.sessionStatus === "running" ? "running" : ""}`}>
                                {run.sessionStatus ?? "deleted"}
                                {run.sessionStopReason ? ` · ${run.sessionStopReason}` : ""}
                              </span>
                            </>
                          ) : (
                            <span className="badge failed">no session: {run.error}</span>
                          )}
                        </li>
                      ))}
                    </ol>
                    <ListFooter query={runs.query} count={runs.items.length} noun="runs" />
                  </>
                )
              }
            </QueryState>
          </section>
        </>
      )}
    </QueryState>
  );
}

function AutomationHeader({ automation }: { automation: Automation }) {
  const client = useClient();
  const queries = useQueryClient();
  const refresh = () => {
    void queries.invalidateQueries({ queryKey: ["automation", automation.id] });
    void queries.invalidateQueries({ queryKey: ["automations"] });
  };
  const runNow = useMutation({ mutationFn: () => client.automations.run(automation.id), onSuccess: refresh });
  const toggle = useMutation({
    mutationFn: () => client.automations.update(automation.id, { enabled: !automation.enabled }),
    onSuccess: refresh,
  });
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => client.automations.remove(automation.id),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["automations"] });
      navigate("/automations");
    },
  });
  return (
    <header className="page-header">
      <PageHeading title={automation.name} />
      <span className={`badge ${automation.enabled ? "done" : ""}`}>{automation.enabled ? "enabled" : "disabled"}</span>
      <span className="spacer" />
      <button type="button" className="primary" disabled={runNow.isPending} onClick={() => runNow.mutate()}>
        Run now
      </button>
      <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate()}>
        {automation.enabled ? "Disable" : "Enable"}
      </button>
      <Link to={`/automations/${automation.id}/edit`} className="button-link">
        Edit
      </Link>
      <button
        type="button"
        className="danger"
        disabled={remove.isPending}
        onClick={() => {
          if (window.confirm(`Delete ${automation.name}? Its schedule stops; the sessions it created stay.`))
            remove.mutate();
        }}
      >
        Delete
      </button>
      {runNow.isSuccess && <span className="muted">Run requested.</span>}
      <ErrorNote error={runNow.error ?? toggle.error ?? remove.error} />
    </header>
  );
}
