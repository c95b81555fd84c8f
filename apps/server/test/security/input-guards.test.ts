import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonDepth, MAX_JSON_DEPTH } from "../../src/http/input-guards.js";
import { expectError, expectInvalid } from "../support/expect-error.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("jsonDepth", () => {
  it("counts nesting, skipping brackets inside strings and escaped quotes", () => {
    expect(jsonDepth(bytes("1"))).toBe(0);
    expect(jsonDepth(bytes('{"a":[1,{"b":[]}]}'))).toBe(4);
    expect(jsonDepth(bytes('{"a":"[[[[{{{{","b":"\\"[[["}'))).toBe(1);
    expect(jsonDepth(bytes('["ü€😀",["x"]]'))).toBe(2);
  });
});

describe("deeply nested bodies", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("are a 400 request.invalid before parsing, with or without an Idempotency-Key", async () => {
    for (const body of [
      `${"[".repeat(20_000)}${"]".repeat(20_000)}`,
      `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
    ]) {
      for (const headers of [{}, { "Idempotency-Key": `deep-${body.length}` }]) {
        const res = await t.http
          .post("/v1/vaults")
          .set({ ...t.tenant.auth, ...headers, "Content-Type": "application/json" })
          .send(body);
        expectInvalid(res, ["body"]);
        expect(res.body.error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      }
    }
    expect(await t.platform.ctx.db.prisma.vault.count({ where: { workspaceId: t.tenant.workspaceId } })).toBe(0);
  });

  it(`accept ${MAX_JSON_DEPTH} levels`, async () => {
    // body object, inputSchema object: 2 levels, then `x` nests the rest.
    const inner = MAX_JSON_DEPTH - 2;
    const input = `${'{"a":'.repeat(inner)}1${"}".repeat(inner)}`;
    const body = `{"name":"deep_tool","description":"d","url":"https://example.com/x","inputSchema":{"type":"object","x":${input}}}`;
    expect(jsonDepth(bytes(body))).toBe(MAX_JSON_DEPTH);
    const res = await t.http
      .post(`${t.tenant.base}/serverless-tools`)
      .set({ ...t.tenant.auth, "Content-Type": "application/json" })
      .send(body);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
  });
});

describe("the NUL character", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("is a 400 request.invalid in a path, a query or a body string", async () => {
    for (const res of [
      await t.http.get(`${t.tenant.base}/knowledge-bases/%00/documents/x`).set(t.tenant.auth),
      await t.http.get("/v1/vaults?name=a%00b").set(t.tenant.auth),
    ]) {
      expectError(res, 400, "request.invalid");
      expect(res.body.error.message).toMatch(/NUL/);
    }
    const body = await t.http
      .post("/v1/vaults")
      .set({ ...t.tenant.auth, "Content-Type": "application/json" })
      .send('{"name":"v","secrets":{"K":"a\\u0000b"}}');
    expectInvalid(body, ["body.secrets.K"]);
    // An escaped backslash followed by u0000 is text, not NUL.
    const text = await t.http
      .post("/v1/vaults")
      .set({ ...t.tenant.auth, "Content-Type": "application/json" })
      .send('{"name":"a\\\\u0000b"}');
    expect(text.status, JSON.stringify(text.body)).not.toBe(500);
  });
});
