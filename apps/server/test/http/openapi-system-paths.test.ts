import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

// The probes and the document itself are in the document, answering what it says (no key needed).
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface Operation {
  security?: unknown[];
  responses: Record<string, { content: { "application/json": { example: Record<string, unknown> } } }>;
}

describe("system paths in the OpenAPI document", () => {
  it("documents /healthz, /readyz and /v1/openapi.json as the server answers them", async () => {
    const document = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, { get: Operation }>;
    };
    for (const path of ["/healthz", "/readyz", "/v1/openapi.json"]) {
      const operation = document.paths[path]?.get;
      expect(operation?.security, path).toEqual([]);
      const res = await fetch(`${t.url}${path}`);
      const documented = operation!.responses[String(res.status)];
      expect(documented, `${path} answered ${res.status}`).toBeDefined();
      expect(await res.json()).toMatchObject(documented!.content["application/json"].example);
    }
  });
});
