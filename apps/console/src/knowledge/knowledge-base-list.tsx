import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useSignedIn } from "../auth/session.js";
import { curlSnippet, EmptyState } from "../components/empty-state.js";
import { fieldErrors } from "../components/field-errors.js";
import { FieldMessages } from "../components/field-messages.js";
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

/** The project's knowledge bases (paged to the end), and a form that creates one. */
export default function KnowledgeBaseList() {
  const { client, context } = useSignedIn();
  const list = usePagedList(["knowledge-bases"], (cursor) =>
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
      <EmbeddedResources
        label="Knowledge bases"
        noun="knowledge bases"
        path="/knowledge-bases"
        countLabel="Documents"
        countOf={(kb) => kb.documentCount}
        list={list}
        empty={
          <EmptyState
            title="No knowledge base yet"
            snippet={curlSnippet("POST", `/v1/projects/${context.project.id}/knowledge-bases`, { name: "handbook" })}
          >
            <p>Create one above, or with the SDK or curl:</p>
          </EmptyState>
        }
      />
    </>
  );
}

function NewKnowledgeBase() {
  const { client } = useSignedIn();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [fields, setFields] = useState<ResourceFieldsDraft>({
    name: "",
    description: "",
    model: DEFAULT_EMBEDDING_DRAFT,
  });
  const [maxTokens, setMaxTokens] = useState("");
  const [overlapTokens, setOverlapTokens] = useState("");
  const create = useMutation({
    mutationFn: () => {
      const embeddingModel = embeddingModelOf(fields.model);
      const chunking = {
        ...(maxTokens.trim() ? { maxTokens: Number(maxTokens) } : {}),
        ...(overlapTokens.trim() ? { overlapTokens: Number(overlapTokens) } : {}),
      };
      return client.knowledgeBases.create({
        name: fields.name.trim(),
        ...(fields.description.trim() ? { description: fields.description.trim() } : {}),
        ...(embeddingModel ? { embeddingModel } : {}),
        ...(Object.keys(chunking).length ? { chunking } : {}),
      } as Parameters<typeof client.knowledgeBases.create>[0]);
    },
    onSuccess: (kb) => {
      void queries.invalidateQueries({ queryKey: ["knowledge-bases"] });
      navigate(`/knowledge-bases/${kb.id}`);
    },
  });
  const errors = fieldErrors(create.error, [...RESOURCE_FIELDS, "chunking"]);
  return (
    <form
      className="inline-form"
      aria-label="New knowledge base"
      onSubmit={(e) => {
        e.preventDefault();
        if (fields.name.trim()) create.mutate();
      }}
    >
      <ResourceFields id="new-kb" value={fields} onChange={setFields} error={create.error} />
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
        <FieldMessages messages={errors.byField.get("chunking")} />
      </label>
      <button type="submit" className="primary" disabled={create.isPending || !fields.name.trim()}>
        Create knowledge base
      </button>
      <FormErrors error={create.error} other={errors.other} shown={shownByResourceFields(create.error)} />
    </form>
  );
}
