import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { QueryState } from "../components/query-state.js";
import { formatPercent, formatTime } from "../lib/format.js";

export default function ExperimentList() {
  const { client, context } = useSignedIn();
  const experiments = useQuery({
    queryKey: ["experiments"],
    queryFn: () => client.experiments.list({ limit: 100 }),
    refetchInterval: (query) =>
      query.state.data?.data.some((e) => e.status === "pending" || e.status === "running") ? 2_000 : false,
  });
  return (
    <>
      <h1>Experiments</h1>
      <QueryState query={experiments}>
        {(page) =>
          page.data.length === 0 ? (
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
                An experiment runs every case of a dataset through a model or an agent and scores the answers. Create a
                dataset (<code>POST /v1/projects/…/datasets</code>), then an experiment:
              </p>
            </EmptyState>
          ) : (
            <table className="list">
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
                {page.data.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <Link to={`/experiments/${e.id}`}>{e.name}</Link>
                    </td>
                    <td>
                      <span
                        className={`badge ${e.status === "completed" ? "done" : e.status === "failed" ? "failed" : "running"}`}
                      >
                        {e.status}
                      </span>
                    </td>
                    <td>
                      {e.progress.done}/{e.progress.total}
                    </td>
                    <td>{formatPercent(e.totals?.passRate)}</td>
                    <td>{formatTime(e.createdAt)}</td>
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
