import type { Agent, AgentPlatform } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { LongText } from "../components/long-text.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { formatTime } from "../lib/format.js";
import { configText, modelLabel } from "./agent-config.js";
import { GuardrailsView } from "./guardrails-view.js";
import { StartSession } from "./start-session.js";
import { VersionDiff } from "./version-diff.js";

export default function AgentPage() {
  const { id = "" } = useParams();
  const client = useClient();
  const agent = useQuery({ queryKey: ["agent", id], queryFn: () => client.agents.get(id) });
  const versions = usePagedList(["agent", id, "versions"], (cursor) =>
    client.agents.listVersions(id, { limit: 100, ...(cursor ? { cursor } : {}) }),
  );
  return (
    <QueryState query={agent}>
      {(a) => (
        <>
          <AgentHeader agent={a} />
          <p className="muted">
            <code>{a.id}</code> · model <code>{modelLabel(a.model)}</code> · version {a.version} · updated{" "}
            {formatTime(a.updatedAt)} · <Link to={`/sessions?agent=${a.id}`}>sessions of this agent</Link> ·{" "}
            <Link to={`/experiments/new?agent=${a.id}`}>run an experiment</Link>
          </p>
          {a.description && <p>{a.description}</p>}
          {!a.archivedAt && <StartSession agentId={a.id} />}
          <section aria-labelledby="versions-heading">
            <h2 id="versions-heading">Versions</h2>
            <QueryState query={versions.query}>
              {() => (
                <>
                  <VersionTable agent={a} versions={versions.items} />
                  <ListFooter query={versions.query} count={versions.items.length} noun="versions" />
                  <h3>Compare versions</h3>
                  <VersionDiff versions={versions.items} />
                </>
              )}
            </QueryState>
          </section>
          <section aria-labelledby="config-heading">
            <h2 id="config-heading">Configuration (version {a.version})</h2>
            <h3>System prompt</h3>
            {a.system ? <LongText text={a.system} /> : <p className="muted">None.</p>}
            <h3>Guardrails</h3>
            <GuardrailsView guardrails={a.guardrails} />
            <Retrieval agent={a} />
            <h3>Everything else</h3>
            <pre>{configText({ ...a, system: "", guardrails: undefined })}</pre>
          </section>
        </>
      )}
    </QueryState>
  );
}

function useAgentWrite(agentId: string) {
  const client = useClient();
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (write: (client: AgentPlatform) => PromiseLike<Agent>) => Promise.resolve(write(client)),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["agent", agentId] });
      void queries.invalidateQueries({ queryKey: ["agents"] });
    },
  });
}

function AgentHeader({ agent }: { agent: Agent }) {
  const write = useAgentWrite(agent.id);
  const navigate = useNavigate();
  return (
    <header className="page-header">
      <PageHeading title={agent.name} />
      {agent.archivedAt && <span className="badge">archived {formatTime(agent.archivedAt)}</span>}
      <span className="spacer" />
      {!agent.archivedAt && (
        <Link to={`/agents/${agent.id}/edit`} className="button-link primary">
          Edit
        </Link>
      )}
      <button
        type="button"
        disabled={write.isPending}
        onClick={() =>
          write.mutate((c) => c.agents.duplicate(agent.id, {}), {
            onSuccess: (copy) => navigate(`/agents/${copy.id}`),
          })
        }
      >
        Duplicate
      </button>
      {!agent.archivedAt && (
        <button
          type="button"
          disabled={write.isPending}
          onClick={() => {
            if (window.confirm(`Archive ${agent.name}? Its sessions stay readable; it can no longer be changed.`)) {
              write.mutate((c) => c.agents.archive(agent.id));
            }
          }}
        >
          Archive
        </button>
      )}
      <ErrorNote error={write.error} />
    </header>
  );
}

function VersionTable({ agent, versions }: { agent: Agent; versions: Agent[] }) {
  const write = useAgentWrite(agent.id);
  return (
    <>
      <table className="list">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Model</th>
            <th scope="col">Published</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <td>
                {v.version}
                {v.version === agent.version && <span className="badge">current</span>}
              </td>
              <td>
                <code>{modelLabel(v.model)}</code>
              </td>
              <td>{formatTime(v.updatedAt)}</td>
              <td>
                {v.version !== agent.version && !agent.archivedAt && (
                  <button
                    type="button"
                    disabled={write.isPending}
                    aria-label={`Restore version ${v.version}`}
                    onClick={() => {
                      if (
                        window.confirm(
                          `Restore version ${v.version}? Its configuration is published as version ${agent.version + 1}; the history stays.`,
                        )
                      ) {
                        write.mutate((c) => c.agents.restore(agent.id, v.version, { version: agent.version }));
                      }
                    }}
                  >
                    Restore
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorNote error={write.error} />
    </>
  );
}

/** The knowledge bases the agent may search and the memory stores it mounts, linked to their pages. */
function Retrieval({ agent }: { agent: Agent }) {
  const bases = agent.knowledgeBases ?? [];
  const stores = agent.defaults?.resources ?? [];
  if (bases.length === 0 && stores.length === 0) return null;
  return (
    <>
      <h3>Knowledge and memory</h3>
      <ul>
        {bases.map((id) => (
          <li key={id}>
            knowledge base <Link to={`/knowledge-bases/${id}`}>{id}</Link>
          </li>
        ))}
        {stores.map((mount) => (
          <li key={mount.memoryStoreId}>
            memory store <Link to={`/memory-stores/${mount.memoryStoreId}`}>{mount.memoryStoreName}</Link> ({mount.mode}
            )
          </li>
        ))}
      </ul>
    </>
  );
}
