import type supertest from "supertest";
import { expect } from "vitest";

export { expectError, expectInvalid, type HttpResult } from "../support/expect-error.js";

/**
 * Follows `nextCursor` from `path` (which may already carry a query) with the given page size; returns every item and
 * the cursors seen, checking the page shape on the way.
 */
export async function walkPages(
  http: supertest.Agent,
  auth: Record<string, string>,
  path: string,
  limit: number,
  // biome-ignore lint/suspicious/noExplicitAny: list items of any resource
): Promise<{ items: any[]; cursors: string[] }> {
  // biome-ignore lint/suspicious/noExplicitAny: list items of any resource
  const items: any[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  const sep = path.includes("?") ? "&" : "?";
  for (let page = 0; page < 1000; page++) {
    const url = `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await http.get(url).set(auth);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    items.push(...res.body.data);
    if (!res.body.hasMore) {
      expect(res.body.nextCursor).toBeNull();
      return { items, cursors };
    }
    expect(res.body.data.length).toBe(limit);
    cursor = res.body.nextCursor as string;
    cursors.push(cursor);
  }
  throw new Error("pagination did not end");
}

/** Every id exactly once, and the page order is the list's documented order (ids descending, newest first). */
export function expectEachOnceNewestFirst(ids: string[], expected: string[]): void {
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual([...expected].sort());
  expect(ids).toEqual([...ids].sort().reverse());
}
