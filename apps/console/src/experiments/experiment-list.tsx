import { Link } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { QueryState } from "../components/query-state.js";
import { formatPercent, formatTime } from "../lib/format.js";
import { statusClass } from "./status.js";

export default function ExperimentList() {
  const { client, context } = useSignedIn();
  const { query, items } = usePagedList(
    ["experiments"],
    (cursor) => client.experiments.list({ limit: 100, ...(cursor ? { cursor } : {}) }),
    { refreshMs: 3_000 },
  );
  return (
    <>
      <div className="page-header">
        <PageHeading title="Experiments" />
        <span className="spacer" />
        <Link to="/datasets" className="button-link">
          Datasets
        </Link>
        <Link to="/experiments/new" className="button-link primary">
          New experiment
        </Link>
      </div>
      <QueryState query={query}>
        {() =>
          items.length === 0 ? (
            <EmptyState
              title="No experiments yet"
              snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/experiments`, {
                datasetId: "<datasetId>",
                name: "First run",
                task: { type: "agent", agentId: "<agentId>" },
                scorers: [{ type: "not_empty" }],
              })}
            >
              <p>
                An experiment runs every case of a dataset through a model or an agent and scores the answers. Make a{" "}
                <Link to="/datasets">dataset</Link>, then a <Link to="/experiments/new">new experiment</Link> — or with
                curl:
              </p>
            </EmptyState>
          ) : (
            <>
              <table className="list stack" aria-label="Experiments">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Status</th>
                    <th scope="col">Cases</th>
                    <th scope="col">Pass rate</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((e) => (
                    <tr key={e.id}>
                      <td data-label="Name">
                        <Link to={`/experiments/${e.id}`}>{e.name}</Link>
                      </td>
                      <td data-label="Status">
                        <span className={`badge ${statusClass(e.status)}`}>{e.status}</span>
                      </td>
                      <td data-label="Cases">
                        {e.progress.done}/{e.progress.total}
                      </td>
                      <td data-label="Pass rate">{formatPercent(e.totals?.passRate)}</td>
                      <td data-label="Created">{formatTime(e.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ListFooter query={query} count={items.length} noun="experiments" />
            </>
          )
        }
      </QueryState>
    </>
  );
}
