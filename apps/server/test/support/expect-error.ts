import { expect } from "vitest";

/** What the assertions need of a supertest response. */
export interface HttpResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests
  body: any;
  text?: string;
  headers: Record<string, string>;
}

/**
 * Asserts the whole error envelope: status, code, a readable message, a `req_` id equal to the X-Request-Id header,
 * and nothing but `error` at the top level.
 */
export function expectError(res: HttpResult, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }, JSON.stringify(res.body)).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe("string");
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(res.body.error.requestId).toMatch(/^req_[0-9a-z]{26}$/);
  expect(res.headers["x-request-id"]).toBe(res.body.error.requestId);
  expect(Object.keys(res.body)).toEqual(["error"]);
}

/** 400 `request.invalid` whose issues include these field paths, each with a message. */
export function expectInvalid(res: HttpResult, paths: string[]): void {
  expectError(res, 400, "request.invalid");
  const issues = res.body.error.details.issues as { path: string; message: string }[];
  expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(paths));
  for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
}
