import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCorsOrigins } from "../../src/http/cors.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

const ORIGIN = "https://app.example.com";
let t: TestApp;
let withCors: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  withCors = await startTestApp({ env: { CORS_ORIGINS: `${ORIGIN}, http://localhost:5173` } });
});
afterAll(async () => {
  await t?.close();
  await withCors?.close();
});

/** The directives of a Content-Security-Policy header, by name. */
function csp(header: string | undefined): Map<string, string[]> {
  expect(header, "Content-Security-Policy").toBeDefined();
  return new Map(
    header!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("secure headers", () => {
  it("locks API answers down: nothing may load, no framing, no sniffing", async () => {
    for (const res of [
      await t.http.get("/v1/platform/context").set(t.tenant.auth),
      await t.http.get("/v1/platform/context"),
      await t.http.get("/healthz"),
    ]) {
      const policy = csp(res.headers["content-security-policy"]);
      expect(policy.get("default-src")).toEqual(["'none'"]);
      expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("SAMEORIGIN");
      // Plain HTTP: no HSTS (browsers ignore it there, and it would claim HTTPS where there is none).
      expect(res.headers["strict-transport-security"]).toBeUndefined();
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["x-powered-by"]).toBeUndefined();
      // The rest of helmet's defaults, set from the list read once at start.
      expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
      expect(res.headers["cross-origin-resource-policy"]).toBe("same-origin");
      expect(res.headers["origin-agent-cluster"]).toBe("?1");
      expect(res.headers["x-dns-prefetch-control"]).toBe("off");
      expect(res.headers["x-download-options"]).toBe("noopen");
      expect(res.headers["x-permitted-cross-domain-policies"]).toBe("none");
      expect(res.headers["x-xss-protection"]).toBe("0");
    }
  });

  it("sends HSTS only over HTTPS: behind a TLS-terminating proxy (X-Forwarded-Proto: https), never over plain HTTP", async () => {
    for (const path of ["/v1/platform/context", "/console", "/docs", "/healthz"]) {
      const plain = await t.http.get(path).set(t.tenant.auth);
      expect(plain.headers["strict-transport-security"], path).toBeUndefined();
      const proxied = await t.http.get(path).set(t.tenant.auth).set("X-Forwarded-Proto", "https");
      expect(proxied.headers["strict-transport-security"], path).toBe("max-age=15552000");
      const proxiedHttp = await t.http.get(path).set(t.tenant.auth).set("X-Forwarded-Proto", "http");
      expect(proxiedHttp.headers["strict-transport-security"], path).toBeUndefined();
    }
  });

  it("serves /docs under a policy that allows this origin only, and the page needs nothing else", async () => {
    const page = await t.http.get("/docs");
    expect(page.status).toBe(200);
    const policy = csp(page.headers["content-security-policy"]);
    expect(policy.get("script-src")).toEqual(["'self'"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    // No external host anywhere in the policy.
    for (const values of policy.values()) {
      for (const value of values) expect(value).toMatch(/^('[a-z-]+'|data:|blob:)$/);
    }
    // Every script is a same-origin file (an inline script would be blocked), and every asset is served.
    const html = page.text;
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/[^/]/);
      expect(body!.trim()).toBe("");
    }
    for (const asset of assets) {
      expect(asset.startsWith("/") && !asset.startsWith("//"), asset).toBe(true);
      const res = await t.http.get(asset);
      expect(res.status, asset).toBe(200);
    }
  });

  it("lets signed files be embedded elsewhere while they keep their own sandbox", async () => {
    const res = await t.http.get("/v1/files/artifacts/nothing-here");
    expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    const api = await t.http.get("/v1/platform/context");
    expect(api.headers["cross-origin-resource-policy"]).toBe("same-origin");
  });
});

describe("CORS_ORIGINS", () => {
  it("sends no CORS headers when unset", async () => {
    const preflight = await t.http
      .options("/v1/platform/context")
      .set({ Origin: ORIGIN, "Access-Control-Request-Method": "GET" });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    const res = await t.http.get("/v1/platform/context").set({ ...t.tenant.auth, Origin: ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("answers preflights of the listed origins, without needing a key", async () => {
    const preflight = await withCors.http.options(`${withCors.tenant.base}/agents`).set({
      Origin: ORIGIN,
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(preflight.headers["access-control-allow-methods"]).toContain("POST");
    expect(preflight.headers["access-control-allow-headers"]).toMatch(/Authorization/);
    expect(preflight.headers["access-control-allow-headers"]).toMatch(/Idempotency-Key/);
    expect(preflight.headers["access-control-allow-credentials"]).toBeUndefined();
  });

  it("lets listed origins read answers and their headers; other origins get no CORS headers", async () => {
    const res = await withCors.http.get("/v1/platform/context").set({ ...withCors.tenant.auth, Origin: ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(res.headers["access-control-expose-headers"]).toMatch(/X-Request-Id/);
    expect(res.headers.vary).toMatch(/Origin/);
    const error = await withCors.http.get("/v1/platform/context").set({ Origin: "http://localhost:5173" });
    expect(error.status).toBe(401);
    expect(error.headers["access-control-allow-origin"]).toBe("http://localhost:5173");

    const other = await withCors.http
      .get("/v1/platform/context")
      .set({ ...withCors.tenant.auth, Origin: "https://evil.example" });
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("accepts origins or *, and refuses anything else", () => {
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins(" https://a.example ,http://localhost:3000/")).toEqual([
      "https://a.example",
      "http://localhost:3000",
    ]);
    expect(parseCorsOrigins("*")).toBe("*");
    for (const bad of ["a.example", "https://a.example/path", "ftp://a.example"]) {
      expect(() => parseCorsOrigins(bad)).toThrow(/CORS_ORIGINS/);
    }
  });
});
