import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useClient } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { QueryState } from "../components/query-state.js";
import { formatTime } from "../lib/format.js";

/** The workspace's webhook endpoints (admin keys only: the route is not shown to members). */
export default function WebhookList() {
  const client = useClient();
  const webhooks = useQuery({ queryKey: ["webhooks"], queryFn: () => client.webhooks.list({ limit: 100 }) });
  return (
    <>
      <h1>Webhooks</h1>
      <QueryState query={webhooks}>
        {(page) =>
          page.data.length === 0 ? (
            <EmptyState
              title="No webhook endpoints yet"
              snippet={curlSnippet("POST", "/v1/webhooks", {
                url: "https://example.com/hooks/agent-platform",
                events: ["session.status_idle"],
              })}
            >
              <p>
                A webhook endpoint receives signed events (sessions going idle, automation runs, experiments). Add one:
              </p>
            </EmptyState>
          ) : (
            <table className="list">
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((w) => (
                  <tr key={w.id}>
                    <td>
                      <Link to={`/webhooks/${w.id}`}>{w.url}</Link>
                      {w.description && <div className="muted small">{w.description}</div>}
                    </td>
                    <td>{w.events.join(", ")}</td>
                    <td>
                      <span className={`badge ${w.enabled ? "done" : "failed"}`}>
                        {w.enabled ? "enabled" : "disabled"}
                      </span>
                      {w.disabledReason && <div className="muted small">{w.disabledReason}</div>}
                    </td>
                    <td>{formatTime(w.createdAt)}</td>
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
