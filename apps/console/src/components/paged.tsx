import { type QueryKey, useInfiniteQuery } from "@tanstack/react-query";

/** A page of a cursor list, as every list route answers. */
export interface CursorPage<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Pages a list refreshes while no more than this many are shown (refreshing a long list re-reads every page). */
const LIVE_PAGES = 2;

/**
 * A cursor list read page by page (`nextCursor`), all the way to its end. While only the first pages are shown it
 * refreshes every `refreshMs` (new items show up at the top); once someone has paged further back it stops, and
 * "Refresh" reads it again.
 */
export function usePagedList<T>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined) => PromiseLike<CursorPage<T>>,
  options: { refreshMs?: number; enabled?: boolean } = {},
) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => Promise.resolve(fetchPage(pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: options.enabled ?? true,
    refetchInterval: (q) =>
      options.refreshMs && (q.state.data?.pages.length ?? 1) <= LIVE_PAGES ? options.refreshMs : false,
  });
  const items = query.data?.pages.flatMap((page) => page.data) ?? [];
  return { query, items };
}

/** Below a paged list: how many are shown, and "Load more" until the end. */
export function ListFooter({
  query,
  count,
  noun,
}: {
  query: ReturnType<typeof usePagedList>["query"];
  count: number;
  noun: string;
}) {
  if (!query.data || count === 0) return null;
  const pages = query.data.pages.length;
  // One page holding everything: nothing to add.
  if (pages === 1 && !query.hasNextPage) return null;
  return (
    <div className="list-footer">
      <span className="muted" aria-live="polite">
        {query.hasNextPage ? `${count} ${noun} shown, more below` : `All ${count} ${noun} shown`}
      </span>
      {query.hasNextPage && (
        <button type="button" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? "Loading…" : "Load more"}
        </button>
      )}
      {query.hasNextPage && (
        <button
          type="button"
          onClick={async () => {
            let more = true;
            while (more) more = (await query.fetchNextPage()).hasNextPage === true;
          }}
          disabled={query.isFetchingNextPage}
        >
          Load all
        </button>
      )}
      {pages > LIVE_PAGES && (
        <button type="button" onClick={() => void query.refetch()} disabled={query.isFetching}>
          Refresh
        </button>
      )}
    </div>
  );
}
