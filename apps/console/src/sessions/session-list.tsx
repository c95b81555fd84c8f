import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote } from "../components/query-state.js";
import { VirtualTbody } from "../components/virtual-rows.js";
import { formatTime, formatUsd } from "../lib/format.js";
import { parseMetadataFilter } from "../lib/metadata-filter.js";
import { StatusBadge } from "./status-badge.js";

/** What "Show" offers, as the list's `status` and `stopReason` filters. */
const SHOW = {
  "": { label: "All sessions" },
  waiting: { label: "Waiting for you", stopReason: "requires_action", status: "idle" },
  errors: { label: "Errors", stopReason: "error" },
  blocked: { label: "Blocked by a guardrail", stopReason: "guardrail_blocked" },
  running: { label: "Running", status: "running" },
  idle: { label: "Idle", status: "idle" },
} as const satisfies Record<
  string,
  { label: string; stopReason?: "requires_action" | "error" | "guardrail_blocked"; status?: "idle" | "running" }
>;
type Show = keyof typeof SHOW;

const FILTERS = ["agent", "show", "search", "archived", "metadata"] as const;

/** Sessions, newest first, paged to the end; the first pages refresh every few seconds so status changes show. */
export default function SessionList() {
  const { client, context } = useSignedIn();
  const [params, setParams] = useSearchParams();
  const agent = params.get("agent") ?? "";
  const show = (params.get("show") ?? "") as Show;
  const search = params.get("search") ?? "";
  const archived = params.get("archived") ?? "false";
  const metadataText = params.get("metadata") ?? "";
  const metadata = parseMetadataFilter(metadataText);
  const filter = SHOW[show] ?? SHOW[""];
  const agents = useQuery({
    queryKey: ["agents", "all"],
    queryFn: () => client.agents.list({ limit: 100, status: "all" }),
  });
  const { query, items } = usePagedList(
    ["sessions", { agent, show, search, archived, metadata: metadata.pairs }],
    (cursor) =>
      client.sessions.list({
        limit: 100,
        ...(cursor ? { cursor } : {}),
        ...(agent ? { agent } : {}),
        ...("status" in filter ? { status: filter.status } : {}),
        ...("stopReason" in filter ? { stopReason: filter.stopReason } : {}),
        ...(search ? { search } : {}),
        ...(archived ? { archived: archived as "true" | "false" } : {}),
        ...(metadata.pairs ? { metadata: metadata.pairs } : {}),
      }),
    { refreshMs: 3_000, enabled: metadata.error === undefined },
  );
  const agentName = new Map((agents.data?.data ?? []).map((a) => [a.id, a.name]));
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const filtered = FILTERS.some((name) => (name === "archived" ? archived !== "false" : params.get(name)));

  return (
    <>
      <PageHeading title="Sessions" />
      <section className="filters" aria-label="Filter sessions">
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
          Show
          <select value={show} onChange={(e) => setFilter("show", e.target.value)}>
            {Object.entries(SHOW).map(([value, option]) => (
              <option key={value} value={value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <TextFilter
          label="Title"
          placeholder="words in the title, or an id"
          value={search}
          onSet={(v) => setFilter("search", v)}
        />
        <label>
          Archived
          <select value={archived} onChange={(e) => setFilter("archived", e.target.value)}>
            <option value="false">Active only</option>
            <option value="true">Archived only</option>
            <option value="">Both</option>
          </select>
        </label>
        <TextFilter
          label="Metadata (key=value, comma separated)"
          placeholder="ticket=42"
          value={metadataText}
          onSet={(v) => setFilter("metadata", v)}
          error={metadata.error}
        />
        {filtered && (
          <button type="button" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
            Clear filters
          </button>
        )}
      </section>
      {metadata.error ? null : query.isPending ? (
        <p className="loading">Loading…</p>
      ) : query.isError ? (
        <ErrorNote error={query.error} />
      ) : items.length === 0 ? (
        filtered ? (
          <section className="empty" aria-label="No session matches">
            <h2>No session matches these filters</h2>
            <p>
              Change or{" "}
              <button
                type="button"
                className="link"
                onClick={() => setParams(new URLSearchParams(), { replace: true })}
              >
                clear the filters
              </button>{" "}
              to see the project's other sessions.
            </p>
          </section>
        ) : (
          <EmptyState
            title="No sessions yet"
            snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/sessions`, {
              agent: "<agentId>",
              events: [{ type: "user.message", content: [{ type: "text", text: "Hello" }] }],
            })}
          >
            <p>
              A session is one conversation with an agent. Start one from an <Link to="/agents">agent's page</Link>, the
              SDK or curl:
            </p>
          </EmptyState>
        )
      ) : (
        <>
          <table className="list stack" aria-label="Sessions">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Agent</th>
                <th scope="col">Status</th>
                <th scope="col">Entries</th>
                <th scope="col">Cost</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <VirtualTbody
              items={items}
              columns={6}
              keyOf={(s) => s.id}
              row={(s, props) => (
                <tr key={s.id} {...props}>
                  <td data-label="Title">
                    <Link to={`/sessions/${s.id}`}>{s.title ?? s.id}</Link>
                    {s.archivedAt && <span className="badge">archived</span>}
                  </td>
                  <td data-label="Agent">
                    <Link to={`/agents/${s.agent.id}`}>{agentName.get(s.agent.id) ?? s.agent.id}</Link> v
                    {s.agent.version}
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={s.status} stopReason={s.stopReason} waiting={s.pendingActions.length} />
                  </td>
                  <td data-label="Entries">{s.lastSeq}</td>
                  <td data-label="Cost">{formatUsd(s.usage.costUsd)}</td>
                  <td data-label="Updated">{formatTime(s.updatedAt)}</td>
                </tr>
              )}
            />
          </table>
          <ListFooter query={query} count={items.length} noun="sessions" />
        </>
      )}
    </>
  );
}

/** A text filter applied on Enter or when it loses focus (not on every keystroke). */
function TextFilter({
  label,
  placeholder,
  value,
  onSet,
  error,
}: {
  label: string;
  placeholder: string;
  value: string;
  onSet(value: string): void;
  error?: string | undefined;
}) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    // The URL changed (Clear filters, back button): show its value.
    setSeen(value);
    setText(value);
  }
  const id = `filter-${label.split(" ")[0]!.toLowerCase()}`;
  return (
    <label>
      {label}
      <input
        value={text}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") onSet(text.trim());
        }}
        onBlur={() => onSet(text.trim())}
      />
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}
