import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { QueryState } from "../components/query-state.js";
import { formatTime } from "../lib/format.js";

/** Sessions, newest first, refreshed every few seconds so that status changes show without a reload. */
export default function SessionList() {
  const { client, context } = useSignedIn();
  const [params, setParams] = useSearchParams();
  const agent = params.get("agent") ?? "";
  const status = params.get("status") ?? "";
  const archived = params.get("archived") ?? "false";
  const metadataText = params.get("metadata") ?? "";
  const metadata = parseMetadataFilter(metadataText);
  const agents = useQuery({
    queryKey: ["agents", "all"],
    queryFn: () => client.agents.list({ limit: 100, status: "all" }),
  });
  const sessions = useQuery({
    queryKey: ["sessions", { agent, status, archived, metadata }],
    queryFn: () =>
      client.sessions.list({
        limit: 100,
        ...(agent ? { agent } : {}),
        ...(status ? { status: status as "idle" | "running" } : {}),
        ...(archived ? { archived: archived as "true" | "false" } : {}),
        ...(metadata ? { metadata } : {}),
      }),
    refetchInterval: 3_000,
  });
  const agentName = new Map((agents.data?.data ?? []).map((a) => [a.id, a.name]));
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  return (
    <>
      <h1>Sessions</h1>
      <div className="filters">
        <label>
          Agent
          <select value={agent} onChange={(e) => setFilter("agent", e.target.value)}>
            <option value="">All agents</option>
            {(agents.data?.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setFilter("status", e.target.value)}>
            <option value="">Any</option>
            <option value="running">Running</option>
            <option value="idle">Idle</option>
          </select>
        </label>
        <label>
          Archived
          <select value={archived} onChange={(e) => setFilter("archived", e.target.value)}>
            <option value="false">Active only</option>
            <option value="true">Archived only</option>
            <option value="">Both</option>
          </select>
        </label>
        <label>
          Metadata (key=value, comma separated)
          <input
            defaultValue={metadataText}
            placeholder="ticket=42"
            onKeyDown={(e) => {
              if (e.key === "Enter") setFilter("metadata", e.currentTarget.value.trim());
            }}
            onBlur={(e) => setFilter("metadata", e.currentTarget.value.trim())}
          />
        </label>
      </div>
      <QueryState query={sessions}>
        {(page) =>
          page.data.length === 0 ? (
            <EmptyState
              title="No sessions yet"
              snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/sessions`, {
                agent: "<agentId>",
                events: [{ type: "user.message", content: [{ type: "text", text: "Hello" }] }],
              })}
            >
              <p>A session is one conversation with an agent. Start one from the SDK or with curl:</p>
            </EmptyState>
          ) : (
            <table className="list">
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Status</th>
                  <th scope="col">Entries</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((s) => (
                  <tr key={s.id}>
                    <td>
                      <Link to={`/sessions/${s.id}`}>{s.title ?? s.id}</Link>
                      {s.archivedAt && <span className="badge">archived</span>}
                    </td>
                    <td>
                      <Link to={`/agents/${s.agent.id}`}>{agentName.get(s.agent.id) ?? s.agent.id}</Link> v
                      {s.agent.version}
                    </td>
                    <td>
                      <StatusBadge status={s.status} stopReason={s.stopReason} waiting={s.pendingActions.length} />
                    </td>
                    <td>{s.lastSeq}</td>
                    <td>{formatTime(s.updatedAt)}</td>
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

/** `ticket=42, team=support` → `{ ticket: "42", team: "support" }` (sessions whose metadata has every pair). */
function parseMetadataFilter(text: string): Record<string, string> | undefined {
  const pairs = text
    .split(",")
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf("=");
      return at > 0 ? [pair.slice(0, at).trim(), pair.slice(at + 1).trim()] : [pair, ""];
    });
  return pairs.length ? Object.fromEntries(pairs) : undefined;
}

export function StatusBadge({
  status,
  stopReason,
  waiting,
}: {
  status: string;
  stopReason: string | null;
  waiting: number;
}) {
  if (status === "running") return <span className="badge running">running</span>;
  if (waiting > 0) return <span className="badge waiting">waiting for you ({waiting})</span>;
  return (
    <span className={`badge ${stopReason === "error" ? "failed" : ""}`}>
      idle{stopReason ? ` · ${stopReason}` : ""}
    </span>
  );
}
