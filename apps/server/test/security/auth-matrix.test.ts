import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, type HttpResult } from "../support/expect-error.js";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startLoopback } from "../tools/support.js";
import { type ContractRoute, contractRoutes, fillPath } from "./support/contract-routes.js";
import { seedWorld, type World } from "./support/world.js";
import { validSample } from "./support/zod-arbitrary.js";

/**
 * Every route of the contract (walked, not listed) × every way a key can be wrong: exactly 401 or 404 with the
 * envelope, never the other tenant's data; administration routes with a member key: 403.
 */
let t: TestApp;
let world: World;
let outsider: Tenant;
let neighbour: { auth: { Authorization: string } };
let member: { auth: { Authorization: string } };
let revoked: { auth: { Authorization: string } };
let close: () => Promise<void>;

const routes = contractRoutes();
const guarded = routes.filter((r) => !r.isPublic);

beforeAll(async () => {
  t = await startTestApp();
  const endpoint = await startLoopback((_req, res) => res.end("{}"));
  close = endpoint.close;
  world = await seedWorld(t, t.tenant, { tag: "a", mcpUrl: `${endpoint.url}/mcp`, toolUrl: `${endpoint.url}/tool` });
  outsider = await t.newTenant();
  const keyFor = async (projectId: string, role: "admin" | "member") => {
    const res = await t.http
      .post("/v1/api-keys")
      .set(t.tenant.auth)
      .send({ name: `k-${role}`, projectId, role });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; key: string };
  };
  member = { auth: { Authorization: `Bearer ${(await keyFor(t.tenant.projectId, "member")).key}` } };
  // Another project of the same workspace.
  const project = await t.http.post("/v1/projects").set(t.tenant.auth).send({ name: "neighbour" });
  // A member key: admin keys may read every project of their workspace (administration).
  neighbour = { auth: { Authorization: `Bearer ${(await keyFor(project.body.id, "member")).key}` } };
  const gone = await keyFor(t.tenant.projectId, "admin");
  expect((await t.http.post(`/v1/api-keys/${gone.id}/revoke`).set(t.tenant.auth)).status).toBe(200);
  revoked = { auth: { Authorization: `Bearer ${gone.key}` } };
});

afterAll(async () => {
  await t?.close();
  await close?.();
});

/** Calls a route of the world with a valid body and query (so only the key decides the answer). */
async function call(route: ContractRoute, headers: Record<string, string>, seed = 1): Promise<HttpResult> {
  const path = fillPath(route.path, world.ids);
  let request = t.http[route.method.toLowerCase() as "get"](path).set(headers);
  // A valid query without `cursor` (a random cursor is a 400 before the key matters).
  const { cursor: _cursor, ...query } = (validSample(route.query, seed) as Record<string, string> | undefined) ?? {};
  request = request.query(query);
  if (route.method !== "GET" && route.method !== "DELETE")
    request = request.send((validSample(route.body, seed) as object) ?? {});
  return request;
}

/** None of the world's ids or planted names shows up in a body (an id the caller sent may be echoed in a 404). */
function expectNoWorldData(res: HttpResult, route: ContractRoute) {
  const text = JSON.stringify(res.body);
  const sent = fillPath(route.path, world.ids);
  for (const [what, id] of Object.entries(world.ids)) {
    if (id.length < 8 || sent.includes(id)) continue; // "1", "docs", "notes.md": not identifying
    expect(text.includes(id), `${route.name} leaked ${what} ${id}: ${text.slice(0, 300)}`).toBe(false);
  }
  expect(text).not.toMatch(/-a-7f3a9c|store-a|kb-a|ds-a|agent-a|skill-a/);
}

function expect401or404(res: HttpResult, route: ContractRoute) {
  expect([401, 404], `${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
  expectError(res, res.status, res.body.error.code);
  if (res.status === 401) expect(res.body.error.code).toBe("auth.unauthorized");
  else expect(res.body.error.code).toMatch(/\.not_found$/);
}

describe("the contract's routes", () => {
  it("are all found, with the public ones set apart by the explicit rule", () => {
    expect(guarded.length).toBeGreaterThan(60);
    expect(routes.filter((r) => r.isPublic).map((r) => r.name)).toEqual(["skills.downloadFile"]);
    expect(routes.filter((r) => r.adminOnly).length).toBeGreaterThanOrEqual(10);
  });
});

describe.each([
  ["no key", {}],
  ["a Basic header", { Authorization: "Basic dXNlcjpwYXNz" }],
  ["a bearer without a key", { Authorization: "Bearer" }],
  ["a bearer with two tokens", { Authorization: "Bearer ap_one ap_two" }],
  ["an unknown key", { Authorization: "Bearer ap_not_a_real_key_0000000000000000" }],
])("with %s", (_what, headers: Record<string, string>) => {
  it.each(guarded.map((r) => [r.name, r] as const))("%s answers 401 auth.unauthorized", async (_name, route) => {
    const res = await call(route, headers);
    expectError(res, 401, "auth.unauthorized");
  });
});

describe("with a revoked key", () => {
  it.each(guarded.map((r) => [r.name, r] as const))("%s answers 401 auth.unauthorized", async (_name, route) => {
    const res = await call(route, revoked.auth);
    expectError(res, 401, "auth.unauthorized");
    expect(res.body.error.message).toMatch(/revoked/);
  });
});

describe("with another workspace's admin key", () => {
  const withIds = guarded.filter((r) => r.path.includes(":"));
  const withoutIds = guarded.filter((r) => !r.path.includes(":"));

  it.each(withIds.map((r) => [r.name, r] as const))(
    "%s on the first tenant's ids answers 401 or 404",
    async (_n, route) => {
      const res = await call(route, outsider.auth);
      expect401or404(res, route);
      expectNoWorldData(res, route);
    },
  );

  it.each(withoutIds.map((r) => [r.name, r] as const))(
    "%s shows none of the first tenant's data",
    async (_n, route) => {
      const res = await call(route, outsider.auth);
      expect(res.status).toBeLessThan(500);
      expectNoWorldData(res, route);
    },
  );
});

describe("with a key of another project of the same workspace", () => {
  const projectRoutes = guarded.filter((r) => r.path.includes(":projectId"));
  it.each(projectRoutes.map((r) => [r.name, r] as const))("%s answers 404", async (_n, route) => {
    const res = await call(route, neighbour.auth);
    expect401or404(res, route);
    expect(res.status).toBe(404);
    expectNoWorldData(res, route);
  });
});

describe("with a member key of the same project", () => {
  const admin = guarded.filter((r) => r.adminOnly);
  it.each(admin.map((r) => [r.name, r] as const))(
    "%s (administration) answers 403 auth.forbidden",
    async (_n, route) => {
      const res = await call(route, member.auth);
      expectError(res, 403, "auth.forbidden");
    },
  );

  // Only reads: they change nothing the other checks rely on.
  const reads = guarded.filter((r) => !r.adminOnly && r.method === "GET" && !r.name.endsWith("streamEvents"));
  it.each(reads.map((r) => [r.name, r] as const))("%s is not administration: no 403", async (_n, route) => {
    const res = await call(route, member.auth);
    expect(res.status, JSON.stringify(res.body)).not.toBe(403);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  });
});
