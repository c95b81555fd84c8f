import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/http/input-guards.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// `Content-Type: application/json` exactly is read by the JSON body's own fast path; with a charset parameter the same
// body goes through `express.json`. Every kind of body must get the same answer both ways.

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const bodies: Record<string, Buffer> = {
  "an object": Buffer.from('{"agent": 5}'),
  "an object after a byte order mark": Buffer.concat([BOM, Buffer.from('{"agent": 5}')]),
  "an empty body": Buffer.alloc(0),
  "a body that stops early": Buffer.from('{"agent": '),
  "a body with a bad token on its second line": Buffer.from('{\n  "agent": nope}'),
  "a string": Buffer.from('"just text"'),
  null: Buffer.from("null"),
  "a body nested too deep": Buffer.from(`${"[".repeat(MAX_JSON_DEPTH + 5)}${"]".repeat(MAX_JSON_DEPTH + 5)}`),
  "a NUL in a string": Buffer.from('{"agent": "a\\u0000b"}'),
  "multi-byte characters": Buffer.from('{"agent": "agt_é漢😀"}'),
  "invalid UTF-8": Buffer.from([0x7b, 0x22, 0x61, 0x67, 0x65, 0x6e, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
};

/** The body's bytes exactly as given (supertest would serialise a Buffer as JSON). */
async function answer(contentType: string, body: Buffer) {
  const res = await fetch(`${t.url}${t.tenant.base}/sessions`, {
    method: "POST",
    headers: { ...t.tenant.auth, "Content-Type": contentType },
    body,
  });
  const { requestId: _, ...error } = ((await res.json()) as { error: Record<string, unknown> }).error;
  return { status: res.status, error };
}

describe("JSON request bodies", () => {
  for (const [name, body] of Object.entries(bodies)) {
    it(`${name}: the same answer with and without a charset parameter`, async () => {
      const fast = await answer("application/json", body);
      const general = await answer("application/json; charset=utf-8", body);
      expect(fast).toEqual(general);
      expect(fast.status).toBeGreaterThanOrEqual(400);
    });
  }

  it("parses what it reads: a valid body reaches the route's validation", async () => {
    const res = await answer("application/json", Buffer.concat([BOM, Buffer.from('{"agent": 5}')]));
    expect(res.status).toBe(400);
    const issues = (res.error.details as { issues: { path: string }[] }).issues;
    expect(issues.map((issue) => issue.path)).toContain("body.agent");
  });
});
