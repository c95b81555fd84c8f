import { isApiError } from "@agent-platform/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { fieldErrors } from "../components/field-errors.js";
import { FormErrors } from "../components/form-errors.js";
import { PageHeading } from "../components/page-heading.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { QueryState } from "../components/query-state.js";
import { VirtualTbody } from "../components/virtual-rows.js";
import { EmbeddingState } from "../knowledge/embedding-state.js";
import { formatTime } from "../lib/format.js";
import {
  DEFAULT_EMBEDDING_DRAFT,
  type EmbeddingModelDraft,
  EmbeddingModelPicker,
  embeddingModelOf,
} from "../retrieval/embedding-model-picker.js";

/** The project's memory stores (paged to the end), and a form that creates one. */
export default function MemoryStoreList() {
  const { client, context } = useSignedIn();
  const { query, items } = usePagedList(["memory-stores"], (cursor) =>
    client.memoryStores.list({ limit: 100, ...(cursor ? { cursor } : {}) }),
  );
  return (
    <>
      <PageHeading title="Memory stores" />
      <p className="muted">
        Durable notes agents read and write across sessions (<code>memory_read</code>, <code>memory_write</code>,{" "}
        <code>memory_search</code>), mounted by an agent's or a session's <code>resources</code>.
      </p>
      <NewMemoryStore />
      <QueryState query={query}>
        {() =>
          items.length === 0 ? (
            <EmptyState
              title="No memory store yet"
              snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/memory-stores`, {
                name: "customer-notes",
              })}
            >
              <p>Create one above, or with the SDK or curl:</p>
            </EmptyState>
          ) : (
            <>
              <table className="list stack" aria-label="Memory stores">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Entries</th>
                    <th scope="col">Embedding model</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <VirtualTbody
                  items={items}
                  columns={4}
                  keyOf={(store) => store.id}
                  row={(store, props) => (
                    <tr key={store.id} {...props}>
                      <td data-label="Name">
                        <Link to={`/memory-stores/${store.id}`}>{store.name}</Link>
                        {store.description && <div className="muted small">{store.description}</div>}
                      </td>
                      <td data-label="Entries">{store.entryCount}</td>
                      <td data-label="Embedding model">
                        <EmbeddingState model={store.embeddingModel} embedding={store.embedding} />
                      </td>
                      <td data-label="Updated">{formatTime(store.updatedAt)}</td>
                    </tr>
                  )}
                />
              </table>
              <ListFooter query={query} count={items.length} noun="memory stores" />
            </>
          )
        }
      </QueryState>
    </>
  );
}

function NewMemoryStore() {
  const { client } = useSignedIn();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [model, setModel] = useState<EmbeddingModelDraft>(DEFAULT_EMBEDDING_DRAFT);
  const create = useMutation({
    mutationFn: () => {
      const embeddingModel = embeddingModelOf(model);
      return client.memoryStores.create({
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
        ...(embeddingModel ? { embeddingModel } : {}),
      });
    },
    onSuccess: (store) => {
      void queries.invalidateQueries({ queryKey: ["memory-stores"] });
      navigate(`/memory-stores/${store.id}`);
    },
  });
  const errors = fieldErrors(create.error, ["name", "description", "embeddingModel"]);
  const invalidModel = isApiError(create.error, "embedding.invalid_model");
  return (
    <form
      className="inline-form"
      aria-label="New memory store"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) create.mutate();
      }}
    >
      <label>
        Name
        <input value={name} maxLength={200} required onChange={(e) => setName(e.target.value)} />
        {(errors.byField.get("name") ?? []).map((m) => (
          <span key={m} className="field-error" role="alert">
            {m}
          </span>
        ))}
      </label>
      <label className="grow">
        Description (optional)
        <input value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <div className="label-like">
        <label htmlFor="new-store-embedding">Embedding model</label>
        <EmbeddingModelPicker id="new-store-embedding" value={model} onChange={setModel} />
        {[
          ...(errors.byField.get("embeddingModel") ?? []),
          ...(invalidModel ? [(create.error as Error).message] : []),
        ].map((m) => (
          <span key={m} className="field-error" role="alert">
            {m}
          </span>
        ))}
      </div>
      <button type="submit" className="primary" disabled={create.isPending || !name.trim()}>
        Create memory store
      </button>
      <FormErrors error={create.error} other={errors.other} shown={invalidModel} />
    </form>
  );
}
