import type { MemoryEntry, MemoryStore } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { DeletableHeader } from "../components/deletable-header.js";
import { fieldErrors } from "../components/field-errors.js";
import { FieldMessages } from "../components/field-messages.js";
import { FormErrors } from "../components/form-errors.js";
import { LongText } from "../components/long-text.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { VirtualTbody } from "../components/virtual-rows.js";
import { EmbeddingState } from "../knowledge/embedding-state.js";
import { formatBytes, formatNumber, formatTime } from "../lib/format.js";
import { MemoryHits } from "../retrieval/hits.js";
import { SearchForm } from "../retrieval/search-form.js";

/** A memory store: its search box, its entries in key order (with a prefix filter), and a form that writes one. */
export default function MemoryStorePage() {
  const { id = "" } = useParams();
  const client = useClient();
  const store = useQuery({
    queryKey: ["memory-store", id],
    queryFn: () => client.memoryStores.get(id),
    refetchInterval: (q) => (q.state.data && q.state.data.embedding.status !== "ready" ? 2_000 : false),
  });
  return (
    <QueryState query={store}>
      {(s) => (
        <>
          <StoreHeader store={s} />
          <dl className="facts">
            <dt>Id</dt>
            <dd>
              <code>{s.id}</code>
            </dd>
            <dt>Embedding model</dt>
            <dd>
              <EmbeddingState model={s.embeddingModel} embedding={s.embedding} />
            </dd>
            {s.description && (
              <>
                <dt>Description</dt>
                <dd>{s.description}</dd>
              </>
            )}
          </dl>
          <MemorySearch store={s} />
          <PutEntry storeId={s.id} />
          <Entries storeId={s.id} />
        </>
      )}
    </QueryState>
  );
}

function StoreHeader({ store }: { store: MemoryStore }) {
  const client = useClient();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => client.memoryStores.delete(store.id),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["memory-stores"] });
      navigate("/memory-stores");
    },
  });
  return (
    <DeletableHeader
      title={store.name}
      badge={store.entryCount === 1 ? "1 entry" : `${formatNumber(store.entryCount)} entries`}
      question={`Delete ${store.name} and its entries? Sessions that mount it then read nothing.`}
      remove={remove}
    />
  );
}

function MemorySearch({ store }: { store: MemoryStore }) {
  const client = useClient();
  const search = useMutation({
    mutationFn: (request: { query: string; mode: "hybrid" | "semantic" | "fulltext"; limit: number }) =>
      Promise.resolve(client.memoryStores.search(store.id, request)),
  });
  return (
    <section aria-labelledby="search-heading">
      <h2 id="search-heading">Search</h2>
      <SearchForm label={`Search ${store.name}`} maxLimit={50} pending={search.isPending} onSearch={search.mutate} />
      <ErrorNote error={search.error} />
      {search.data && <MemoryHits result={search.data} />}
    </section>
  );
}

function PutEntry({ storeId }: { storeId: string }) {
  const client = useClient();
  const queries = useQueryClient();
  const [key, setKey] = useState("");
  const [content, setContent] = useState("");
  const put = useMutation({
    mutationFn: () => client.memoryStores.putEntry(storeId, { key: key.trim(), content }),
    onSuccess: () => {
      setKey("");
      setContent("");
      void queries.invalidateQueries({ queryKey: ["memory-store", storeId] });
    },
  });
  const errors = fieldErrors(put.error, ["key", "content"]);
  return (
    <section aria-labelledby="put-heading">
      <h2 id="put-heading">Write an entry</h2>
      <form
        className="inline-form"
        aria-label="Write an entry"
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim() && content) put.mutate();
        }}
      >
        <label>
          Key
          <input value={key} placeholder="customers/acme.md" maxLength={512} onChange={(e) => setKey(e.target.value)} />
          <FieldMessages messages={errors.byField.get("key")} />
        </label>
        <label className="grow">
          Content (replaces the entry of that key)
          <textarea rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
          <FieldMessages messages={errors.byField.get("content")} />
        </label>
        <button type="submit" className="primary" disabled={put.isPending || !key.trim() || !content}>
          Save entry
        </button>
        <FormErrors error={put.error} other={errors.other} />
      </form>
    </section>
  );
}

function Entries({ storeId }: { storeId: string }) {
  const client = useClient();
  const [prefix, setPrefix] = useState("");
  const [typed, setTyped] = useState("");
  const entries = usePagedList(["memory-store", storeId, "entries", prefix], (cursor) =>
    client.memoryStores.listEntries(storeId, {
      limit: 100,
      ...(cursor ? { cursor } : {}),
      ...(prefix ? { prefix } : {}),
    }),
  );
  return (
    <section aria-labelledby="entries-heading">
      <h2 id="entries-heading">Entries</h2>
      <form
        className="filters"
        aria-label="Filter entries"
        onSubmit={(e) => {
          e.preventDefault();
          setPrefix(typed.trim());
        }}
      >
        <label>
          Keys starting with
          <input
            value={typed}
            placeholder="customers/"
            onChange={(e) => setTyped(e.target.value)}
            onBlur={() => setPrefix(typed.trim())}
          />
        </label>
        <button type="submit">Filter</button>
      </form>
      <QueryState query={entries.query}>
        {() =>
          entries.items.length === 0 ? (
            <p className="muted">{prefix ? "No entry's key starts with this." : "No entry yet."}</p>
          ) : (
            <>
              <table className="list stack" aria-label="Entries">
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Content</th>
                    <th scope="col">Size</th>
                    <th scope="col">Updated</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <VirtualTbody
                  items={entries.items}
                  columns={5}
                  keyOf={(e) => e.key}
                  row={(e, props) => <EntryRow key={e.key} storeId={storeId} entry={e} rowProps={props} />}
                />
              </table>
              <ListFooter query={entries.query} count={entries.items.length} noun="entries" />
            </>
          )
        }
      </QueryState>
    </section>
  );
}

function EntryRow({
  storeId,
  entry,
  rowProps,
}: {
  storeId: string;
  entry: MemoryEntry;
  rowProps: { ref?: (el: HTMLTableRowElement | null) => void; "data-index": number };
}) {
  const client = useClient();
  const queries = useQueryClient();
  const remove = useMutation({
    mutationFn: () => client.memoryStores.deleteEntry(storeId, { key: entry.key }),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["memory-store", storeId] }),
  });
  return (
    <tr {...rowProps}>
      <td data-label="Key">
        <code>{entry.key}</code>
      </td>
      <td data-label="Content">
        <LongText text={entry.content} />
      </td>
      <td data-label="Size">{formatBytes(entry.bytes)}</td>
      <td data-label="Updated">{formatTime(entry.updatedAt)}</td>
      <td>
        <button
          type="button"
          aria-label={`Delete ${entry.key}`}
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(`Delete the entry ${entry.key}?`)) remove.mutate();
          }}
        >
          Delete
        </button>
        <ErrorNote error={remove.error} />
      </td>
    </tr>
  );
}
