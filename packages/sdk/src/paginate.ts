export interface CursorPageLike<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

type ListArgs = { query?: Record<string, unknown> } & Record<string, unknown>;

/**
 * Iterates every item of a cursor list, fetching pages as needed:
 * `for await (const agent of paginate(client.agents.list, { params: { projectId } })) …`
 */
export async function* paginate<T, A extends ListArgs>(
  list: (args: A) => Promise<CursorPageLike<T>>,
  args: A,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await list({ ...args, query: { ...args.query, ...(cursor ? { cursor } : {}) } });
    yield* page.data;
    if (!page.hasMore || !page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
