import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { fieldErrors } from "../components/field-errors.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { formatTime } from "../lib/format.js";

/** The project's datasets, and a form that creates one (its cases are added on its page). */
export default function DatasetList() {
  const { client } = useSignedIn();
  const { query, items } = usePagedList(["datasets"], (cursor) =>
    client.datasets.list({ limit: 100, ...(cursor ? { cursor } : {}) }),
  );
  return (
    <>
      <PageHeading title="Datasets" />
      <p className="muted">
        A dataset is an ordered list of cases — an input and, optionally, the expected answer — that experiments run
        through a model or an agent. Add cases here, or from a session's turn ("Add to dataset" on a message).
      </p>
      <NewDataset />
      <QueryState query={query}>
        {() =>
          items.length === 0 ? (
            <p className="muted">No dataset yet.</p>
          ) : (
            <>
              <table className="list stack" aria-label="Datasets">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Cases</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((d) => (
                    <tr key={d.id}>
                      <td data-label="Name">
                        <Link to={`/datasets/${d.id}`}>{d.name}</Link>
                        {d.description && <div className="muted small">{d.description}</div>}
                      </td>
                      <td data-label="Cases">{d.caseCount}</td>
                      <td data-label="Updated">{formatTime(d.updatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <ListFooter query={query} count={items.length} noun="datasets" />
            </>
          )
        }
      </QueryState>
    </>
  );
}

function NewDataset() {
  const { client } = useSignedIn();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const create = useMutation({
    mutationFn: () =>
      client.datasets.create({ name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) }),
    onSuccess: (dataset) => {
      void queries.invalidateQueries({ queryKey: ["datasets"] });
      navigate(`/datasets/${dataset.id}`);
    },
  });
  const errors = fieldErrors(create.error, ["name", "description"]);
  return (
    <form
      className="inline-form"
      aria-label="New dataset"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) create.mutate();
      }}
    >
      <label>
        Name
        <input value={name} maxLength={200} required onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="grow">
        Description (optional)
        <input value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={create.isPending || !name.trim()}>
        Create dataset
      </button>
      {[...errors.byField.values()].flat().map((m) => (
        <span key={m} className="field-error" role="alert">
          {m}
        </span>
      ))}
      {errors.other.length === 0 && errors.byField.size === 0 && <ErrorNote error={create.error} />}
    </form>
  );
}
