import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { QueryState } from "../components/query-state.js";
import { NextRun } from "./next-run.js";

export default function AutomationList() {
  const { client, context } = useSignedIn();
  const automations = useQuery({
    queryKey: ["automations"],
    queryFn: () => client.automations.list({ limit: 100 }),
    refetchInterval: 15_000,
  });
  return (
    <>
      <h1>Automations</h1>
      <QueryState query={automations}>
        {(page) =>
          page.data.length === 0 ? (
            <EmptyState
              title="No automations yet"
              snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/automations`, {
                name: "Daily digest",
                agentId: "<agentId>",
                prompt: "Summarise yesterday",
                trigger: { type: "schedule", cron: "0 9 * * 1-5", timezone: "Europe/Lisbon" },
              })}
            >
              <p>An automation sends a prompt to an agent on a schedule (cron) or when you run it. Create one with:</p>
            </EmptyState>
          ) : (
            <table className="list">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Schedule</th>
                  <th scope="col">Next firing</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <Link to={`/automations/${a.id}`}>{a.name}</Link>
                    </td>
                    <td>{a.scheduleDescription ?? "manual"}</td>
                    <td>
                      <NextRun automation={a} />
                    </td>
                    <td>
                      <span className={`badge ${a.enabled ? "done" : ""}`}>{a.enabled ? "enabled" : "disabled"}</span>
                    </td>
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
