import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { fieldErrors } from "../components/field-errors.js";
import { FormErrors } from "../components/form-errors.js";
import { PageHeading } from "../components/page-heading.js";
import { usePagedList } from "../components/paged.js";
import { EmbeddedResources } from "../retrieval/embedded-resources.js";
import { DEFAULT_EMBEDDING_DRAFT, embeddingModelOf } from "../retrieval/embedding-model-picker.js";
import {
  RESOURCE_FIELDS,
  ResourceFields,
  type ResourceFieldsDraft,
  shownByResourceFields,
} from "../retrieval/resource-fields.js";

/** The project's memory stores (paged to the end), and a form that creates one. */
export default function MemoryStoreList() {
  const { client, context } = useSignedIn();
  const list = usePagedList(["memory-stores"], (cursor) =>
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
      <EmbeddedResources
        label="Memory stores"
        noun="memory stores"
        path="/memory-stores"
        countLabel="Entries"
        countOf={(store) => store.entryCount}
        list={list}
        empty={
          <EmptyState
            title="No memory store yet"
            snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/memory-stores`, {
              name: "customer-notes",
            })}
          >
            <p>Create one above, or with the SDK or curl:</p>
          </EmptyState>
        }
      />
    </>
  );
}

function NewMemoryStore() {
  const { client } = useSignedIn();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [fields, setFields] = useState<ResourceFieldsDraft>({
    name: "",
    description: "",
    model: DEFAULT_EMBEDDING_DRAFT,
  });
  const create = useMutation({
    mutationFn: () => {
      const embeddingModel = embeddingModelOf(fields.model);
      return client.memoryStores.create({
        name: fields.name.trim(),
        ...(fields.description.trim() ? { description: fields.description.trim() } : {}),
        ...(embeddingModel ? { embeddingModel } : {}),
      });
    },
    onSuccess: (store) => {
      void queries.invalidateQueries({ queryKey: ["memory-stores"] });
      navigate(`/memory-stores/${store.id}`);
    },
  });
  const errors = fieldErrors(create.error, RESOURCE_FIELDS);
  return (
    <form
      className="inline-form"
      aria-label="New memory store"
      onSubmit={(e) => {
        e.preventDefault();
        if (fields.name.trim()) create.mutate();
      }}
    >
      <ResourceFields id="new-store" value={fields} onChange={setFields} error={create.error} />
      <button type="submit" className="primary" disabled={create.isPending || !fields.name.trim()}>
        Create memory store
      </button>
      <FormErrors error={create.error} other={errors.other} shown={shownByResourceFields(create.error)} />
    </form>
  );
}
