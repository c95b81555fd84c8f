import { Link } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { QueryState } from "../components/query-state.js";
import { NextRun } from "./next-run.js";

export default function AutomationList() {
  const { client, context } = useSignedIn();
  const { query, items } = usePagedList(
    ["automations"],
    (cursor) => client.automations.list({ limit: 100, ...(cursor ? { cursor } : {}) }),
    { refreshMs: 15_000 },
  );
  return (
    <>
      <div className="page-header">
        <PageHeading title="Automations" />
        <span className="spacer" />
        <Link to="/automations/new" className="button-link primary">
          New automation
        </Link>
      </div>
      <QueryState query={query}>
        {() =>
          items.length === 0 ? (
            <EmptyState
              title="No automations yet"
              snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/automations`, {
                name: "Daily digest",
                agentId: "<agentId>",
                prompt: "Summarise yesterday",
                trigger: { type: "schedule", cron: "0 9 * * 1-5", timezone: "Europe/Lisbon" },
              })}
            >
              <p>
                An automation sends a prompt to an agent on a schedule (cron) or when you run it. Create one with{" "}
                <Link to="/automations/new">New automation</Link>, or with:
              </p>
            </EmptyState>
          ) : (
            <>
              <table className="list stack" aria-label="Automations">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Schedule</th>
                    <th scope="col">Next firing</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((a) => (
                    <tr key={a.id}>
                      <td data-label="Name">
                        <Link to={`/automations/${a.id}`}>{a.name}</Link>
                      </td>
                      <td data-label="Schedule">{a.scheduleDescription ?? "manual"}</td>
                      <td data-label="Next firing">
                        <NextRun automation={a} />
                      </td>
                      <td data-label="State">
                        <span className={`badge ${a.enabled ? "done" : ""}`}>{a.enabled ? "enabled" : "disabled"}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ListFooter query={query} count={items.length} noun="automations" />
            </>
          )
        }
      </QueryState>
    </>
  );
}
