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
import { formatTime } from "../lib/format.js";
import {
  DEFAULT_EMBEDDING_DRAFT,
  type EmbeddingModelDraft,
  EmbeddingModelPicker,
  embeddingModelOf,
} from "../retrieval/embedding-model-picker.js";
import { EmbeddingState } from "./embedding-state.js";

/** The project's knowledge bases (paged to the end), and a form that creates one. */
export default function KnowledgeBaseList() {
  const { client, context } = useSignedIn();
  const { query, items } = usePagedList(["knowledge-bases"], (cursor) =>
    client.knowledgeBases.list({ limit: 100, ...(cursor ? { cursor } : {}) }),
  );
  return (
    <>
      <PageHeading title="Knowledge bases" />
      <p className="muted">
        Documents split into passages that agents search by their words and by their meaning (
        <code>knowledge_search</code>
        ). An agent searches the bases its configuration lists (<code>knowledgeBases</code>).
      </p>
      <NewKnowledgeBase />
      <QueryState query={query}>
        {() =>
          items.length === 0 ? (
            <EmptyState
              title="No knowledge base yet"
              snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/knowledge-bases`, { name: "handbook" })}
            >
              <p>Create one above, or with the SDK or curl:</p>
            </EmptyState>
          ) : (
            <>
              <table className="list stack" aria-label="Knowledge bases">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Documents</th>
                    <th scope="col">Embedding model</th>
                    <th scope="col">Updated</th>
                  </tr>
                </thead>
                <VirtualTbody
                  items={items}
                  columns={4}
                  keyOf={(kb) => kb.id}
                  row={(kb, props) => (
                    <tr key={kb.id} {...props}>
                      <td data-label="Name">
                        <Link to={`/knowledge-bases/${kb.id}`}>{kb.name}</Link>
                        {kb.description && <div className="muted small">{kb.description}</div>}
                      </td>
                      <td data-label="Documents">{kb.documentCount}</td>
                      <td data-label="Embedding model">
                        <EmbeddingState model={kb.embeddingModel} embedding={kb.embedding} />
                      </td>
                      <td data-label="Updated">{formatTime(kb.updatedAt)}</td>
                    </tr>
                  )}
                />
              </table>
              <ListFooter query={query} count={items.length} noun="knowledge bases" />
            </>
          )
        }
      </QueryState>
    </>
  );
}

function NewKnowledgeBase() {
  const { client } = useSignedIn();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [model, setModel] = useState<EmbeddingModelDraft>(DEFAULT_EMBEDDING_DRAFT);
  const [maxTokens, setMaxTokens] = useState("");
  const [overlapTokens, setOverlapTokens] = useState("");
  const create = useMutation({
    mutationFn: () => {
      const embeddingModel = embeddingModelOf(model);
      const chunking = {
        ...(maxTokens.trim() ? { maxTokens: Number(maxTokens) } : {}),
        ...(overlapTokens.trim() ? { overlapTokens: Number(overlapTokens) } : {}),
      };
      return client.knowledgeBases.create({
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
        ...(embeddingModel ? { embeddingModel } : {}),
        ...(Object.keys(chunking).length ? { chunking } : {}),
      } as Parameters<typeof client.knowledgeBases.create>[0]);
    },
    onSuccess: (kb) => {
      void queries.invalidateQueries({ queryKey: ["knowledge-bases"] });
      navigate(`/knowledge-bases/${kb.id}`);
    },
  });
  const errors = fieldErrors(create.error, ["name", "description", "embeddingModel", "chunking"]);
  const show = (field: string) =>
    (errors.byField.get(field) ?? []).map((m) => (
      <span key={m} className="field-error" role="alert">
        {m}
      </span>
    ));
  return (
    <form
      className="inline-form"
      aria-label="New knowledge base"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) create.mutate();
      }}
    >
      <label>
        Name
        <input value={name} maxLength={200} required onChange={(e) => setName(e.target.value)} />
        {show("name")}
      </label>
      <label className="grow">
        Description (optional)
        <input value={description} maxLength={2000} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <div className="label-like">
        <label htmlFor="new-kb-embedding">Embedding model</label>
        <EmbeddingModelPicker id="new-kb-embedding" value={model} onChange={setModel} />
        {show("embeddingModel")}
        {isApiError(create.error, "embedding.invalid_model") && (
          <span className="field-error" role="alert">
            {create.error.message}
          </span>
        )}
      </div>
      <label>
        Passage tokens
        <input
          inputMode="numeric"
          placeholder="400"
          value={maxTokens}
          onChange={(e) => setMaxTokens(e.target.value)}
          size={6}
        />
      </label>
      <label>
        Overlap tokens
        <input
          inputMode="numeric"
          placeholder="80"
          value={overlapTokens}
          onChange={(e) => setOverlapTokens(e.target.value)}
          size={6}
        />
        {show("chunking")}
      </label>
      <button type="submit" className="primary" disabled={create.isPending || !name.trim()}>
        Create knowledge base
      </button>
      <FormErrors
        error={create.error}
        other={errors.other}
        shown={isApiError(create.error, "embedding.invalid_model")}
      />
    </form>
  );
}
