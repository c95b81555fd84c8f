import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useClient } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { QueryState } from "../components/query-state.js";
import { formatNumber, formatTime } from "../lib/format.js";

/** Budgets with their consumption in the current period: the API's usage figures are per budget (meter, scope). */
export default function UsagePage() {
  const client = useClient();
  const budgets = useQuery({
    queryKey: ["budgets"],
    queryFn: () => client.budgets.list({ limit: 100 }),
    refetchInterval: 10_000,
  });
  return (
    <>
      <h1>Usage &amp; budgets</h1>
      <QueryState query={budgets}>
        {(page) =>
          page.data.length === 0 ? (
            <EmptyState
              title="No budgets yet"
              snippet={curlSnippet("POST", "/v1/budgets", {
                scope: "workspace",
                meter: "tokens",
                limit: 1000000,
                period: "month",
                action: "notify",
              })}
            >
              <p>
                A budget counts usage by meter (tokens, model calls, sessions) for the workspace or one agent, and can
                block new work past its limit. Create one to follow the workspace's usage:
              </p>
            </EmptyState>
          ) : (
            <table className="list" aria-label="Budgets">
              <thead>
                <tr>
                  <th scope="col">Scope</th>
                  <th scope="col">Meter</th>
                  <th scope="col">Used</th>
                  <th scope="col">Period</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((b) => (
                  <tr key={b.id}>
                    <td>
                      {b.scope === "agent" ? <Link to={`/agents/${b.agentId}`}>agent {b.agentId}</Link> : "workspace"}
                    </td>
                    <td>{b.meter}</td>
                    <td>
                      <meter min={0} max={b.limit} value={Math.min(b.used, b.limit)} aria-label={`${b.meter} used`} />{" "}
                      {formatNumber(b.used)} of {formatNumber(b.limit)} ({formatNumber((b.used / b.limit) * 100, 1)} %)
                      {b.exceeded && <span className="badge failed">exceeded</span>}
                    </td>
                    <td>
                      {b.period}
                      {b.resetsAt && <div className="muted small">resets {formatTime(b.resetsAt)}</div>}
                    </td>
                    <td>{b.action}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
    </>
  );
}
