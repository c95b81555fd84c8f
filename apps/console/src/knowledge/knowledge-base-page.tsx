import type { KnowledgeBase, KnowledgeDocumentSummary, KnowledgeSearchResult } from "@agent-platform/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useClient } from "../auth/session.js";
import { DeletableHeader } from "../components/deletable-header.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { ErrorNote, QueryState } from "../components/query-state.js";
import { VirtualTbody } from "../components/virtual-rows.js";
import { formatBytes, formatTime, formatUsd, plural } from "../lib/format.js";
import { parseMetadataFilter } from "../lib/metadata-filter.js";
import { KnowledgeHits } from "../retrieval/hits.js";
import { SearchForm, type SearchRequest } from "../retrieval/search-form.js";
import { AddDocument } from "./add-document.js";
import { DocumentStatus } from "./document-status.js";
import { EmbeddingState } from "./embedding-state.js";

const REFRESH_MS = 2_000;

/** A knowledge base: its search box, a form that adds a document, and its documents with their indexing status. */
export default function KnowledgeBasePage() {
  const { id = "" } = useParams();
  const client = useClient();
  const base = useQuery({
    queryKey: ["knowledge-base", id],
    queryFn: () => client.knowledgeBases.get(id),
    // While passages wait for vectors, the status is read again (the page shows it move to ready).
    refetchInterval: (q) => (q.state.data && q.state.data.embedding.status !== "ready" ? REFRESH_MS : false),
  });
  const [pending, setPending] = useState(false);
  const documents = usePagedList(
    ["knowledge-base", id, "documents"],
    (cursor) => client.knowledgeBases.listDocuments(id, { limit: 100, ...(cursor ? { cursor } : {}) }),
    pending ? { refreshMs: REFRESH_MS } : {},
  );
  const anyPending = documents.items.some((d) => d.status === "pending");
  if (anyPending !== pending) setPending(anyPending);
  return (
    <QueryState query={base}>
      {(kb) => (
        <>
          <BaseHeader kb={kb} />
          <dl className="facts">
            <dt>Id</dt>
            <dd>
              <code>{kb.id}</code>
            </dd>
            <dt>Embedding model</dt>
            <dd>
              <EmbeddingState model={kb.embeddingModel} embedding={kb.embedding} />
            </dd>
            <dt>Passages</dt>
            <dd>
              up to {kb.chunking.maxTokens} tokens, each repeating {kb.chunking.overlapTokens} of the one before
            </dd>
            {kb.description && (
              <>
                <dt>Description</dt>
                <dd>{kb.description}</dd>
              </>
            )}
          </dl>
          <KnowledgeSearch kb={kb} documents={documents.items} />
          <AddDocument knowledgeBaseId={kb.id} />
          <section aria-labelledby="documents-heading">
            <h2 id="documents-heading">Documents</h2>
            <QueryState query={documents.query}>
              {() =>
                documents.items.length === 0 ? (
                  <p className="muted">No document yet: add one above.</p>
                ) : (
                  <>
                    <DocumentTable kbId={kb.id} documents={documents.items} />
                    <ListFooter query={documents.query} count={documents.items.length} noun="documents" />
                  </>
                )
              }
            </QueryState>
          </section>
        </>
      )}
    </QueryState>
  );
}

function BaseHeader({ kb }: { kb: KnowledgeBase }) {
  const client = useClient();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => client.knowledgeBases.delete(kb.id),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["knowledge-bases"] });
      navigate("/knowledge-bases");
    },
  });
  return (
    <DeletableHeader
      title={kb.name}
      badge={plural(kb.documentCount, "document")}
      question={`Delete ${kb.name} and all its documents? Agents that list it then find nothing in it.`}
      remove={remove}
    />
  );
}

function KnowledgeSearch({ kb, documents }: { kb: KnowledgeBase; documents: KnowledgeDocumentSummary[] }) {
  const client = useClient();
  const [metadataText, setMetadataText] = useState("");
  const [documentId, setDocumentId] = useState("");
  const metadata = parseMetadataFilter(metadataText);
  const search = useMutation({
    mutationFn: (request: SearchRequest): Promise<KnowledgeSearchResult> => {
      const filter = {
        ...(metadata.pairs ? { metadata: metadata.pairs } : {}),
        ...(documentId ? { documentIds: [documentId] } : {}),
      };
      return Promise.resolve(
        client.knowledgeBases.search(kb.id, { ...request, ...(Object.keys(filter).length ? { filter } : {}) }),
      );
    },
  });
  return (
    <section aria-labelledby="search-heading">
      <h2 id="search-heading">Search</h2>
      <SearchForm
        label={`Search ${kb.name}`}
        maxLimit={50}
        pending={search.isPending}
        onSearch={(request) => {
          if (!metadata.error) search.mutate(request);
        }}
      >
        <label>
          Metadata (key=value)
          <input
            value={metadataText}
            placeholder="team=billing"
            aria-invalid={metadata.error ? true : undefined}
            aria-describedby={metadata.error ? "kb-search-metadata-error" : undefined}
            onChange={(e) => setMetadataText(e.target.value)}
          />
          {metadata.error && (
            <span id="kb-search-metadata-error" className="field-error" role="alert">
              {metadata.error}
            </span>
          )}
        </label>
        <label>
          Document
          <select value={documentId} onChange={(e) => setDocumentId(e.target.value)}>
            <option value="">All documents</option>
            {documents.map((d) => (
              <option key={d.id} value={d.id}>
                {d.title}
              </option>
            ))}
          </select>
        </label>
      </SearchForm>
      <ErrorNote error={search.error} />
      {search.data && <KnowledgeHits result={search.data} />}
    </section>
  );
}

function DocumentTable({ kbId, documents }: { kbId: string; documents: KnowledgeDocumentSummary[] }) {
  return (
    <table className="list stack" aria-label="Documents">
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Type</th>
          <th scope="col">Status</th>
          <th scope="col">Size</th>
          <th scope="col">Embedding cost</th>
          <th scope="col">Added</th>
        </tr>
      </thead>
      <VirtualTbody
        items={documents}
        columns={6}
        keyOf={(d) => d.id}
        row={(d, props) => (
          <tr key={d.id} {...props}>
            <td data-label="Title">
              <Link to={`/knowledge-bases/${kbId}/documents/${d.id}`}>{d.title}</Link>
              {Object.keys(d.metadata).length > 0 && (
                <div className="muted small">
                  {Object.entries(d.metadata)
                    .map(([key, value]) => `${key}=${value}`)
                    .join(", ")}
                </div>
              )}
            </td>
            <td data-label="Type">{d.contentType}</td>
            <td data-label="Status">
              <DocumentStatus document={d} />
            </td>
            <td data-label="Size">{formatBytes(d.bytes)}</td>
            <td data-label="Embedding cost">
              {d.embeddingUsage.inputTokens.toLocaleString()} tokens · {formatUsd(d.embeddingUsage.costUsd)}
            </td>
            <td data-label="Added">{formatTime(d.createdAt)}</td>
          </tr>
        )}
      />
    </table>
  );
}
