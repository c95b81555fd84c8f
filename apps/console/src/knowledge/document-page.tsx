import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useClient } from "../auth/session.js";
import { DeletableHeader } from "../components/deletable-header.js";
import { LongText } from "../components/long-text.js";
import { ListFooter, usePagedList } from "../components/paged.js";
import { QueryState } from "../components/query-state.js";
import { VirtualTbody } from "../components/virtual-rows.js";
import { formatBytes, formatTime, formatUsd, plural } from "../lib/format.js";
import { DocumentStatus } from "./document-status.js";

/** A document of a knowledge base: its status, its text, and its passages with their heading paths and offsets. */
export default function DocumentPage() {
  const { id = "", documentId = "" } = useParams();
  const client = useClient();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const base = useQuery({ queryKey: ["knowledge-base", id], queryFn: () => client.knowledgeBases.get(id) });
  const document = useQuery({
    queryKey: ["knowledge-base", id, "document", documentId],
    queryFn: () => client.knowledgeBases.getDocument(id, documentId),
    refetchInterval: (q) => (q.state.data?.status === "pending" ? 2_000 : false),
  });
  const passages = usePagedList(["knowledge-base", id, "document", documentId, "passages"], (cursor) =>
    client.knowledgeBases.listChunks(id, documentId, { limit: 100, ...(cursor ? { cursor } : {}) }),
  );
  // Opened from a search hit: that passage is marked and brought into view.
  const [params] = useSearchParams();
  const marked = params.get("passage");
  const loaded = passages.items.length;
  useEffect(() => {
    if (marked && loaded) window.document.getElementById(`passage-${marked}`)?.scrollIntoView({ block: "center" });
  }, [marked, loaded]);
  const remove = useMutation({
    mutationFn: () => client.knowledgeBases.deleteDocument(id, documentId),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["knowledge-base", id] });
      navigate(`/knowledge-bases/${id}`);
    },
  });
  return (
    <QueryState query={document}>
      {(d) => (
        <>
          <DeletableHeader
            title={d.title}
            badge={plural(d.chunkCount, "passage")}
            question={`Delete “${d.title}” and its passages?`}
            remove={remove}
          />
          <p className="muted">
            In <Link to={`/knowledge-bases/${id}`}>{base.data?.name ?? id}</Link> · <code>{d.id}</code> ·{" "}
            {d.contentType} · {formatBytes(d.bytes)} · added {formatTime(d.createdAt)} · embedding{" "}
            {d.embeddingUsage.inputTokens.toLocaleString()} tokens, {formatUsd(d.embeddingUsage.costUsd)}
          </p>
          <div>
            <DocumentStatus document={d} />
          </div>
          {Object.keys(d.metadata).length > 0 && (
            <p className="small">
              Metadata:{" "}
              {Object.entries(d.metadata)
                .map(([key, value]) => `${key}=${value}`)
                .join(", ")}
            </p>
          )}
          <section aria-labelledby="passages-heading">
            <h2 id="passages-heading">Passages</h2>
            <QueryState query={passages.query}>
              {() => (
                <>
                  <table className="list stack" aria-label="Passages">
                    <thead>
                      <tr>
                        <th scope="col">#</th>
                        <th scope="col">Section</th>
                        <th scope="col">Characters</th>
                        <th scope="col">Text</th>
                      </tr>
                    </thead>
                    <VirtualTbody
                      items={passages.items}
                      columns={4}
                      keyOf={(p) => p.id}
                      row={(p, props) => (
                        <tr
                          key={p.id}
                          {...props}
                          id={`passage-${p.id}`}
                          className={p.id === marked ? "marked-passage" : undefined}
                          aria-current={p.id === marked ? "true" : undefined}
                        >
                          <td data-label="#">
                            {p.position + 1}
                            {p.id === marked && <span className="badge pending">search hit</span>}
                          </td>
                          <td data-label="Section">{p.headingPath.join(" › ") || "—"}</td>
                          <td data-label="Characters">
                            {p.startOffset}–{p.endOffset}
                          </td>
                          <td data-label="Text">
                            <div className="passage">{p.text}</div>
                          </td>
                        </tr>
                      )}
                    />
                  </table>
                  <ListFooter query={passages.query} count={passages.items.length} noun="passages" />
                </>
              )}
            </QueryState>
          </section>
          <section aria-labelledby="content-heading">
            <h2 id="content-heading">Stored text</h2>
            <LongText text={d.content} />
          </section>
        </>
      )}
    </QueryState>
  );
}
