import type { KnowledgeBase } from "@agent-platform/sdk";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { ListFooter, type usePagedList } from "../components/paged.js";
import { QueryState } from "../components/query-state.js";
import { VirtualTbody } from "../components/virtual-rows.js";
import { EmbeddingState } from "../knowledge/embedding-state.js";
import { formatTime } from "../lib/format.js";

/** What knowledge bases and memory stores have in common in a list. */
interface EmbeddedResource {
  id: string;
  name: string;
  description: string | null;
  embeddingModel: KnowledgeBase["embeddingModel"];
  embedding: KnowledgeBase["embedding"];
  updatedAt: string;
}

/**
 * The table of a project's knowledge bases or memory stores (paged to the end, virtualised when long): each with its
 * description, how much it holds, its embedding model and where its vectors stand; `empty` when there is none.
 */
export function EmbeddedResources<T extends EmbeddedResource>({
  label,
  noun,
  path,
  countLabel,
  countOf,
  list,
  empty,
}: {
  label: string;
  noun: string;
  path: string;
  countLabel: string;
  countOf(item: T): number;
  list: ReturnType<typeof usePagedList<T>>;
  empty: ReactNode;
}) {
  const { query, items } = list;
  return (
    <QueryState query={query}>
      {() =>
        items.length === 0 ? (
          empty
        ) : (
          <>
            <table className="list stack" aria-label={label}>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">{countLabel}</th>
                  <th scope="col">Embedding model</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <VirtualTbody
                items={items}
                columns={4}
                keyOf={(item) => item.id}
                row={(item, props) => (
                  <tr key={item.id} {...props}>
                    <td data-label="Name">
                      <Link to={`${path}/${item.id}`}>{item.name}</Link>
                      {item.description && <div className="muted small">{item.description}</div>}
                    </td>
                    <td data-label={countLabel}>{countOf(item)}</td>
                    <td data-label="Embedding model">
                      <EmbeddingState model={item.embeddingModel} embedding={item.embedding} />
                    </td>
                    <td data-label="Updated">{formatTime(item.updatedAt)}</td>
                  </tr>
                )}
              />
            </table>
            <ListFooter query={query} count={items.length} noun={noun} />
          </>
        )
      }
    </QueryState>
  );
}
