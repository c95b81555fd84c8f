import { expect } from "vitest";
import type { HttpResult } from "../support/expect-error.js";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";

export { expectError as expectEnvelope, type HttpResult } from "../support/expect-error.js";

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
