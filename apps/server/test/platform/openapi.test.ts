import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("OpenAPI", () => {
  it("serves the committed openapi.json (packages/contract/test proves it matches the contract)", async () => {
    const committed = readFileSync(
      join(import.meta.dirname, "..", "..", "..", "..", "packages", "contract", "openapi.json"),
      "utf8",
    );
    const res = await t.http.get("/v1/openapi.json");
    expect(res.text).toBe(committed);
  });

  it("is served without a key and documents the error envelope and bearer auth on every operation", async () => {
    const res = await t.http.get("/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
    const operations = Object.values(
      doc.paths as Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>,
    ).flatMap((p) => Object.values(p));
    expect(operations.length).toBeGreaterThan(3);
    for (const op of operations) {
      expect(op.operationId).toBeTruthy();
      // The probes and the document itself are outside the /v1 router: plain JSON, no key, no envelope.
      if (op.operationId.startsWith("system.")) continue;
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["500", "503"]));
      if (op.operationId !== "skills.downloadFile") expect(Object.keys(op.responses)).toContain("401");
    }
  });

  it("serves an interactive reference whose assets are local", async () => {
    const page = await t.http.get("/docs");
    expect(page.status).toBe(200);
    expect(page.text).toContain("/v1/openapi.json");
    expect(page.text).not.toMatch(/https?:\/\//);
    const asset = await t.http.get("/docs/assets/swagger-ui-bundle.js");
    expect(asset.status).toBe(200);
    expect(asset.text.length).toBeGreaterThan(10_000);
  });
});
