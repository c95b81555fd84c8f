import type { DatasetCase } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { LongText } from "../components/long-text.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { VirtualTbody } from "../components/virtual-rows.js";
import { formatPercent, formatTime, plural } from "../lib/format.js";

/** A dataset: its cases (paged to the end), a form that adds one, and the experiments that ran it. */
export default function DatasetPage() {
  const { id = "" } = useParams();
  const client = useClient();
  const dataset = useQuery({ queryKey: ["dataset", id], queryFn: () => client.datasets.get(id) });
  const cases = usePagedList(["dataset", id, "cases"], (cursor) =>
    client.datasets.listCases(id, { limit: 100, ...(cursor ? { cursor } : {}) }),
  );
  const experiments = useQuery({
    queryKey: ["experiments", "dataset", id],
    queryFn: () => client.experiments.list({ datasetId: id, limit: 100 }),
  });
  return (
    <QueryState query={dataset}>
      {(d) => (
        <>
          <header className="page-header">
            <PageHeading title={d.name} />
            <span className="badge">{plural(d.caseCount, "case")}</span>
            <span className="spacer" />
            <Link to={`/experiments/new?dataset=${d.id}`} className="button-link primary">
              New experiment
            </Link>
          </header>
          <p className="muted">
            <code>{d.id}</code> · created {formatTime(d.createdAt)}
            {d.description ? ` · ${d.description}` : ""}
          </p>
          <AddCase datasetId={d.id} />
          <section aria-labelledby="cases-heading">
            <h2 id="cases-heading">Cases</h2>
            <QueryState query={cases.query}>
              {() =>
                cases.items.length === 0 ? (
                  <p className="muted">No case yet: add one above, or from a session ("Add to dataset").</p>
                ) : (
                  <>
                    <div className="table-wrap">
                      <table className="list stack" aria-label="Dataset cases">
                        <thead>
                          <tr>
                            <th scope="col">#</th>
                            <th scope="col">Input</th>
                            <th scope="col">Expected</th>
                            <th scope="col">From</th>
                          </tr>
                        </thead>
                        <VirtualTbody
                          items={cases.items}
                          columns={4}
                          keyOf={(c) => c.id}
                          row={(c, props) => <CaseRow key={c.id} datasetId={d.id} item={c} rowProps={props} />}
                        />
                      </table>
                    </div>
                    <ListFooter query={cases.query} count={cases.items.length} noun="cases" />
                  </>
                )
              }
            </QueryState>
          </section>
          <section aria-labelledby="runs-heading">
            <h2 id="runs-heading">Experiments over this dataset</h2>
            <QueryState query={experiments}>
              {(page) =>
                page.data.length === 0 ? (
                  <p className="muted">None yet.</p>
                ) : (
                  <ul>
                    {page.data.map((e) => (
                      <li key={e.id}>
                        <Link to={`/experiments/${e.id}`}>{e.name}</Link> <span className="badge">{e.status}</span>{" "}
                        {formatPercent(e.totals?.passRate)} · {formatTime(e.createdAt)}
                      </li>
                    ))}
                  </ul>
                )
              }
            </QueryState>
          </section>
        </>
      )}
    </QueryState>
  );
}

function CaseRow({
  datasetId,
  item,
  rowProps,
}: {
  datasetId: string;
  item: DatasetCase;
  rowProps: { ref?: (el: HTMLTableRowElement | null) => void; "data-index": number };
}) {
  const client = useClient();
  const queries = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [expected, setExpected] = useState(item.expected ?? "");
  const save = useMutation({
    mutationFn: () => client.datasets.updateCase(datasetId, item.id, { expected: expected.trim() ? expected : null }),
    onSuccess: () => {
      setEditing(false);
      void queries.invalidateQueries({ queryKey: ["dataset", datasetId, "cases"] });
    },
  });
  const source = item.metadata.sourceSessionId;
  return (
    <tr {...rowProps}>
      <td data-label="#">{item.position}</td>
      <td data-label="Input">
        {item.conversation && item.conversation.length > 0 && (
          <div className="muted small">after {item.conversation.length} earlier messages</div>
        )}
        <LongText text={item.input} />
      </td>
      <td data-label="Expected">
        {editing ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate();
            }}
          >
            <textarea
              aria-label={`Expected answer of case ${item.position}`}
              value={expected}
              rows={3}
              onChange={(e) => setExpected(e.target.value)}
            />
            <button type="submit" disabled={save.isPending}>
              Save
            </button>{" "}
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <ErrorNote error={save.error} />
          </form>
        ) : (
          <>
            {item.expected === null ? <span className="muted">—</span> : <LongText text={item.expected} />}
            <button type="button" className="link small" onClick={() => setEditing(true)}>
              Edit expected
            </button>
          </>
        )}
      </td>
      <td data-label="From">
        {source ? <Link to={`/sessions/${source}`}>session, entry {item.metadata.sourceSeq}</Link> : "added"}
      </td>
    </tr>
  );
}

function AddCase({ datasetId }: { datasetId: string }) {
  const client = useClient();
  const queries = useQueryClient();
  const [input, setInput] = useState("");
  const [expected, setExpected] = useState("");
  const add = useMutation({
    mutationFn: () =>
      client.datasets.appendCases(datasetId, {
        cases: [{ input, ...(expected.trim() ? { expected } : {}) }],
      }),
    onSuccess: () => {
      setInput("");
      setExpected("");
      void queries.invalidateQueries({ queryKey: ["dataset", datasetId] });
    },
  });
  return (
    <form
      className="inline-form"
      aria-label="Add a case"
      onSubmit={(e) => {
        e.preventDefault();
        if (input.trim()) add.mutate();
      }}
    >
      <label className="grow">
        Input (the user message)
        <textarea value={input} rows={2} onChange={(e) => setInput(e.target.value)} />
      </label>
      <label className="grow">
        Expected answer (optional)
        <textarea value={expected} rows={2} onChange={(e) => setExpected(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={add.isPending || !input.trim()}>
        Add case
      </button>
      <ErrorNote error={add.error} />
    </form>
  );
}
