import { useState } from "react";
import { Link } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { QueryState } from "../components/query-state.js";
import { formatTime } from "../lib/format.js";
import { modelLabel } from "./agent-config.js";

export default function AgentList() {
  const { client, context } = useSignedIn();
  const [status, setStatus] = useState<"active" | "archived" | "all">("active");
  const { query, items } = usePagedList(["agents", status, "paged"], (cursor) =>
    client.agents.list({ limit: 100, status, ...(cursor ? { cursor } : {}) }),
  );
  return (
    <>
      <div className="page-header">
        <PageHeading title="Agents" />
        <span className="spacer" />
        <Link to="/agents/new" className="button-link primary">
          New agent
        </Link>
      </div>
      <div className="filters">
        <label>
          Show
          <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="active">Active</option>
            <option value="archived">Archived</option>
            <option value="all">All</option>
          </select>
        </label>
      </div>
      <QueryState query={query}>
        {() =>
          items.length === 0 ? (
            <EmptyState
              title="No agents yet"
              snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/agents`, {
                name: "Echo",
                model: "builtin/echo",
              })}
            >
              <p>
                An agent is a model with instructions and tools. Create one here with{" "}
                <Link to="/agents/new">New agent</Link>, from the SDK (<code>platform.agents.create(…)</code>) or with
                curl:
              </p>
            </EmptyState>
          ) : (
            <>
              <table className="list stack" aria-label="Agents">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Model</th>
                    <th scope="col">Version</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((agent) => (
                    <tr key={agent.id}>
                      <td data-label="Name">
                        <Link to={`/agents/${agent.id}`}>{agent.name}</Link>
                        {agent.archivedAt && <span className="badge">archived</span>}
                      </td>
                      <td data-label="Model">
                        <code>{modelLabel(agent.model)}</code>
                      </td>
                      <td data-label="Version">{agent.version}</td>
                      <td data-label="Updated">{formatTime(agent.updatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ListFooter query={query} count={items.length} noun="agents" />
            </>
          )
        }
      </QueryState>
    </>
  );
}
