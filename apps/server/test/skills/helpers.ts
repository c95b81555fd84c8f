import { expect } from "vitest";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";

export interface HttpResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests
  body: any;
  headers: Record<string, string>;
}

/** Asserts the whole error envelope: status, code, message, request id (also in the header), optional details. */
export function expectEnvelope(res: HttpResult, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const error = res.body.error as { code: string; message: string; requestId: string; details?: unknown };
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe("string");
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.requestId).toMatch(/^req_[0-9a-z]{26}$/);
  expect(res.headers["x-request-id"]).toBe(error.requestId);
  expect(Object.keys(res.body)).toEqual(["error"]);
}

/** Paths of the `request.invalid` issues. */
export function issuePaths(res: HttpResult): string[] {
  return (res.body.error.details.issues as { path: string }[]).map((i) => i.path);
}

export function skillMd(name: string, description: string, body = "# Instructions\n\nDo the thing.\n"): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/** Creates a skill from a root SKILL.md plus the given files. */
export async function createSkill(
  t: TestApp,
  tenant: Tenant,
  options: { name?: string; description?: string; files?: { path: string; content: string }[] } = {},
) {
  const res = await t.http
    .post("/v1/skills")
    .set(tenant.auth)
    .send({
      files: [
        { path: "SKILL.md", content: skillMd(options.name ?? "demo-skill", options.description ?? "A demo skill") },
        ...(options.files ?? []),
      ],
    });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; currentVersion: number; name: string };
}
