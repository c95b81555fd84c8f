import type supertest from "supertest";
import { expect } from "vitest";

export interface HttpResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests
  body: any;
  text: string;
  headers: Record<string, string>;
}

/** Asserts the whole error envelope: status, code, a message, a `req_` id equal to the X-Request-Id header. */
export function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe("string");
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.body.error.requestId).toMatch(/^req_[0-9a-z]{26}$/);
  expect(res.headers["x-request-id"]).toBe(res.body.error.requestId);
}

/** 400 `request.invalid` whose issues include exactly these field paths (and maybe others). */
export function expectInvalid(res: HttpResult, paths: string[]): void {
  expectError(res, 400, "request.invalid");
  const issues = res.body.error.details.issues as { path: string; message: string }[];
  expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(paths));
  for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
}

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
