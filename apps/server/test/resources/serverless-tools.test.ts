import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPinnedServerlessTools } from "../../src/serverless-tools/index.js";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectEachOnceNewestFirst, expectError, expectInvalid, walkPages } from "./helpers.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const weatherSchema = {
  type: "object",
  properties: { city: { type: "string", description: "City name" } },
  required: ["city"],
};

function toolBody(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    description: "Current weather for a city",
    inputSchema: weatherSchema,
    url: "https://tools.example.com/weather",
    ...extra,
  };
}

async function newTool(name: string, tenant: Tenant = t.tenant, extra: Record<string, unknown> = {}) {
  const res = await t.http.post(`${tenant.base}/serverless-tools`).set(tenant.auth).send(toolBody(name, extra));
  expect(res.status).toBe(201);
  return res.body;
}

describe("serverless tools", () => {
  it("creates version 1, resolving a vault name to its id", async () => {
    const vault = (await t.http.post("/v1/vaults").set(t.tenant.auth).send({ name: "weather-api" })).body;
    const created = await t.http
      .post(`${t.tenant.base}/serverless-tools`)
      .set(t.tenant.auth)
      .send(toolBody("get_weather", { vaultId: "weather-api" }));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^stool_[0-9a-z]{26}$/),
      projectId: t.tenant.projectId,
      name: "get_weather",
      version: 1,
      currentVersion: 1,
      description: "Current weather for a city",
      inputSchema: weatherSchema,
      url: "https://tools.example.com/weather",
      vaultId: vault.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      archivedAt: null,
    });
    const got = await t.http.get(`${t.tenant.base}/serverless-tools/${created.body.id}`).set(t.tenant.auth);
    expect(got.body).toEqual(created.body);
    const byId = await newTool("by_vault_id", t.tenant, { vaultId: vault.id });
    expect(byId.vaultId).toBe(vault.id);
  });

  it("publishes a chain of immutable versions and serves any of them", async () => {
    const tool = await newTool("chain");
    const base = `${t.tenant.base}/serverless-tools/${tool.id}`;
    const v2 = await t.http.post(base).set(t.tenant.auth).send({ version: 1, url: "https://tools.example.com/v2" });
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({ version: 2, currentVersion: 2, url: "https://tools.example.com/v2" });
    expect(v2.body.description).toBe(tool.description);
    const v3 = await t.http.post(base).set(t.tenant.auth).send({ version: 2, description: "Weather, v3" });
    expect(v3.body).toMatchObject({ version: 3, description: "Weather, v3", url: "https://tools.example.com/v2" });

    const first = await t.http.get(`${base}?version=1`).set(t.tenant.auth);
    expect(first.body).toMatchObject({ version: 1, currentVersion: 3, url: "https://tools.example.com/weather" });
    expectError(await t.http.get(`${base}?version=4`).set(t.tenant.auth), 404, "serverless_tool.version_not_found");
    expectInvalid(await t.http.get(`${base}?version=zero`).set(t.tenant.auth), ["query.version"]);

    const versions = await walkPages(t.http, t.tenant.auth, `${base}/versions`, 2);
    expect(versions.items.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(versions.items[2]).toEqual({
      toolId: tool.id,
      version: 1,
      description: tool.description,
      inputSchema: weatherSchema,
      url: "https://tools.example.com/weather",
      vaultId: null,
      createdAt: expect.any(String),
    });
    const other = await newTool("chain-other");
    expectInvalid(
      await t.http
        .get(`${t.tenant.base}/serverless-tools/${other.id}/versions?cursor=${versions.cursors[0]}`)
        .set(t.tenant.auth),
      ["query.cursor"],
    );

    // What the runtime loads for an agent's pins: the pinned version, not the current one.
    const pool = t.platform.ctx.db.pool;
    const pinned = await loadPinnedServerlessTools(pool, t.tenant.projectId, [{ toolId: tool.id, version: 2 }]);
    expect(pinned).toEqual([
      expect.objectContaining({ toolId: tool.id, version: 2, url: "https://tools.example.com/v2" }),
    ]);
    expect(await loadPinnedServerlessTools(pool, t.tenant.projectId, [{ toolId: tool.id, version: 9 }])).toEqual([]);
  });

  it("refuses a stale version with 409 serverless_tool.version_conflict and writes nothing", async () => {
    const tool = await newTool("conflict");
    const base = `${t.tenant.base}/serverless-tools/${tool.id}`;
    await t.http.post(base).set(t.tenant.auth).send({ version: 1, description: "second" }).expect(200);
    expectError(
      await t.http.post(base).set(t.tenant.auth).send({ version: 1, description: "lost update" }),
      409,
      "serverless_tool.version_conflict",
    );
    expect((await t.http.get(base).set(t.tenant.auth)).body).toMatchObject({ version: 2, description: "second" });
  });

  it("lets exactly one of several concurrent publishes from the same version win", async () => {
    const tool = await newTool("race");
    const base = `${t.tenant.base}/serverless-tools/${tool.id}`;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.http
          .post(base)
          .set(t.tenant.auth)
          .send({ version: 1, description: `writer ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) {
      expectError(res, 409, "serverless_tool.version_conflict");
    }
    const versions = await t.http.get(`${base}/versions`).set(t.tenant.auth);
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });

  it("publishes nothing for a patch that changes nothing (schema key order does not matter)", async () => {
    const tool = await newTool("noop");
    const base = `${t.tenant.base}/serverless-tools/${tool.id}`;
    const reordered = { required: ["city"], properties: weatherSchema.properties, type: "object" };
    const res = await t.http
      .post(base)
      .set(t.tenant.auth)
      .send({ version: 1, inputSchema: reordered, url: tool.url, description: tool.description });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, currentVersion: 1 });
  });

  it("sets and removes the vault of a version; an unknown vault is 422 serverless_tool.vault_not_found", async () => {
    const vault = (await t.http.post("/v1/vaults").set(t.tenant.auth).send({ name: "tool-creds" })).body;
    const tool = await newTool("vaulted");
    const base = `${t.tenant.base}/serverless-tools/${tool.id}`;
    const withVault = await t.http.post(base).set(t.tenant.auth).send({ version: 1, vaultId: "tool-creds" });
    expect(withVault.body).toMatchObject({ version: 2, vaultId: vault.id });
    const without = await t.http.post(base).set(t.tenant.auth).send({ version: 2, vaultId: null });
    expect(without.body).toMatchObject({ version: 3, vaultId: null });
    expectError(
      await t.http.post(base).set(t.tenant.auth).send({ version: 3, vaultId: "no-such-vault" }),
      422,
      "serverless_tool.vault_not_found",
    );
    const other = await t.newTenant();
    const foreignVault = (await t.http.post("/v1/vaults").set(other.auth).send({ name: "foreign" })).body;
    expectError(
      await t.http
        .post(`${t.tenant.base}/serverless-tools`)
        .set(t.tenant.auth)
        .send(toolBody("foreign_vault", { vaultId: foreignVault.id })),
      422,
      "serverless_tool.vault_not_found",
    );
  });

  it("archives idempotently; an archived tool cannot be published (409 serverless_tool.archived)", async () => {
    const tool = await newTool("archived");
    const base = `${t.tenant.base}/serverless-tools/${tool.id}`;
    const archived = await t.http.post(`${base}/archive`).set(t.tenant.auth);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: tool.id, version: 1, archivedAt: expect.any(String) });
    const again = await t.http.post(`${base}/archive`).set(t.tenant.auth);
    expect(again.body.archivedAt).toBe(archived.body.archivedAt);
    expectError(
      await t.http.post(base).set(t.tenant.auth).send({ version: 1, description: "revive" }),
      409,
      "serverless_tool.archived",
    );
    const ids = async (status: string) =>
      (
        await t.http.get(`${t.tenant.base}/serverless-tools?status=${status}&limit=100`).set(t.tenant.auth)
      ).body.data.map((x: { id: string }) => x.id);
    expect(await ids("active")).not.toContain(tool.id);
    expect(await ids("archived")).toContain(tool.id);
    expect(await ids("all")).toContain(tool.id);
    expect((await t.http.get(base).set(t.tenant.auth)).status).toBe(200);
  });

  it("refuses a duplicate name in the project with 409 serverless_tool.name_taken", async () => {
    await newTool("dup_name");
    expectError(
      await t.http.post(`${t.tenant.base}/serverless-tools`).set(t.tenant.auth).send(toolBody("dup_name")),
      409,
      "serverless_tool.name_taken",
    );
    await newTool("dup_name", await t.newTenant());
  });

  it("validates bodies with field paths", async () => {
    const res = await t.http
      .post(`${t.tenant.base}/serverless-tools`)
      .set(t.tenant.auth)
      .send({
        name: "has space",
        description: "",
        inputSchema: { type: "string" },
        url: "ftp://example.com/x",
        extra: 1,
      });
    expectInvalid(res, ["body.name", "body.description", "body.inputSchema.type", "body.url", "body"]);
    expectInvalid(
      await t.http
        .post(`${t.tenant.base}/serverless-tools`)
        .set(t.tenant.auth)
        .send(toolBody("x".repeat(65), { inputSchema: { type: "object", properties: [] }, url: "not a url" })),
      ["body.name", "body.inputSchema.properties", "body.url"],
    );
    const big = { type: "object", description: "x".repeat(70 * 1024) };
    expectInvalid(
      await t.http
        .post(`${t.tenant.base}/serverless-tools`)
        .set(t.tenant.auth)
        .send(toolBody("big", { inputSchema: big })),
      ["body.inputSchema"],
    );
    const tool = await newTool("publish_validation");
    expectInvalid(
      await t.http
        .post(`${t.tenant.base}/serverless-tools/${tool.id}`)
        .set(t.tenant.auth)
        .send({ description: "no version", name: "rename" }),
      ["body.version", "body"],
    );
  });

  it("walks every page exactly once and binds cursors to the status filter", async () => {
    const tenant = await t.newTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newTool(`tool_${i}`, tenant)).id);
    const { items, cursors } = await walkPages(t.http, tenant.auth, `${tenant.base}/serverless-tools`, 2);
    expectEachOnceNewestFirst(
      items.map((x) => x.id),
      ids,
    );
    expectInvalid(
      await t.http.get(`${tenant.base}/serverless-tools?status=all&cursor=${cursors[0]}`).set(tenant.auth),
      ["query.cursor"],
    );
  });

  it("hides other projects' tools behind 404", async () => {
    const other = await t.newTenant();
    const theirs = await newTool("theirs", other);
    const base = `${t.tenant.base}/serverless-tools/${theirs.id}`;
    expectError(await t.http.get(base).set(t.tenant.auth), 404, "serverless_tool.not_found");
    expectError(await t.http.get(`${base}/versions`).set(t.tenant.auth), 404, "serverless_tool.not_found");
    expectError(
      await t.http.post(base).set(t.tenant.auth).send({ version: 1, description: "hijack" }),
      404,
      "serverless_tool.not_found",
    );
    expectError(await t.http.post(`${base}/archive`).set(t.tenant.auth), 404, "serverless_tool.not_found");
    expectError(
      await t.http.get(`${other.base}/serverless-tools/${theirs.id}`).set(t.tenant.auth),
      404,
      "project.not_found",
    );
    const pins = [{ toolId: theirs.id, version: 1 }];
    expect(await loadPinnedServerlessTools(t.platform.ctx.db.pool, t.tenant.projectId, pins)).toEqual([]);
  });
});
