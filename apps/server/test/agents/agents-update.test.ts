import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type AgentsApi, agentsApi, createAgent, expectError, expectInvalid, seeds } from "./helpers.js";

let t: TestApp;
let api: AgentsApi;
beforeAll(async () => {
  t = await startTestApp();
  api = agentsApi(t);
});
afterAll(async () => {
  await t?.close();
});

describe("versions", () => {
  it("publishes current + 1 on an effective change and keeps history immutable", async () => {
    const agent = await createAgent(api, { name: "v1", system: "first", metadata: { a: "1" } });
    const v2 = await api.update(agent.id, { version: 1, system: "second" });
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({ id: agent.id, version: 2, name: "v1", system: "second", metadata: { a: "1" } });
    const v3 = await api.update(agent.id, { version: 2, name: "v3" });
    expect(v3.body.version).toBe(3);

    expect((await api.get(agent.id)).body).toMatchObject({ version: 3, name: "v3", system: "second" });
    const old = await api.get(agent.id, 1);
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ id: agent.id, version: 1, name: "v1", system: "first" });
    expect(old.body.updatedAt).toBe(agent.updatedAt);
    expect(old.body.createdAt).toBe(agent.createdAt);

    const history = await api.versions(agent.id);
    expect(history.status).toBe(200);
    expect(history.body.data.map((v: { version: number; name: string }) => [v.version, v.name])).toEqual([
      [3, "v3"],
      [2, "v1"],
      [1, "v1"],
    ]);
    expect(history.body.data[2]).toEqual(old.body);
    expect(history.body.data[0]).toEqual((await api.get(agent.id)).body);

    const page1 = await api.versions(agent.id, "?limit=2");
    expect(page1.body.data.map((v: { version: number }) => v.version)).toEqual([3, 2]);
    const page2 = await api.versions(agent.id, `?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(page2.body.data.map((v: { version: number }) => v.version)).toEqual([1]);
  });

  it("the list filter follows the current name", async () => {
    const tenant = await t.newTenant();
    const own = agentsApi(t, tenant);
    const agent = await createAgent(own, { name: "before-rename" });
    await own.update(agent.id, { version: 1, name: "after-rename" });
    expect((await own.list("?name=before")).body.data).toEqual([]);
    expect((await own.list("?name=after")).body.data.map((a: { id: string }) => a.id)).toEqual([agent.id]);
  });

  it("rejects an invalid ?version", async () => {
    const agent = await createAgent(api);
    expectInvalid(await t.http.get(`${api.base}/${agent.id}?version=zero`).set(t.tenant.auth), ["query.version"]);
    expectInvalid(await t.http.get(`${api.base}/${agent.id}?version=0`).set(t.tenant.auth), ["query.version"]);
    expectInvalid(await t.http.get(`${api.base}/${agent.id}?version=99999999999`).set(t.tenant.auth), [
      "query.version",
    ]);
  });
});

describe("changes nothing", () => {
  it("publishes nothing and returns the agent when the patch changes nothing", async () => {
    const agent = await createAgent(api, {
      name: "same",
      tools: ["web_fetch"],
      metadata: { a: "1" },
      browser: { provider: "provider_b" },
    });
    const bodies = [
      { version: 1 },
      { version: 1, name: "same" },
      { version: 1, tools: ["web_fetch"], metadata: { a: "1" } },
      { version: 1, metadata: { missing: "" } },
      { version: 1, recordBrowser: false },
      { version: 1, recordBrowser: null },
      { version: 1, knowledgeBases: [] },
      { version: 1, description: "" },
      { version: 1, browser: { provider: "provider_b" } },
      { version: 1, multiagent: null, defaults: null },
    ];
    for (const body of bodies) {
      const res = await api.update(agent.id, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toEqual(agent);
    }
    expect((await api.versions(agent.id)).body.data).toHaveLength(1);
  });

  it("compares after resolution: a vault named instead of its id changes nothing", async () => {
    const vaultId = await seeds(t).vault("nothing-vault");
    const agent = await createAgent(api, { defaults: { vaultIds: [vaultId] } });
    const res = await api.update(agent.id, { version: 1, defaults: { vaultIds: ["nothing-vault"] } });
    expect(res.body.version).toBe(1);
  });
});

describe("optimistic lock", () => {
  it("answers a stale version with 409 agent.version_conflict and writes nothing", async () => {
    const agent = await createAgent(api);
    await api.update(agent.id, { version: 1, system: "two" });
    const stale = await api.update(agent.id, { version: 1, system: "lost" });
    expectError(stale, 409, "agent.version_conflict");
    expect(stale.body.error.message).toContain("version 2");
    expectError(await api.update(agent.id, { version: 7, system: "x" }), 409, "agent.version_conflict");
    // Even a patch that would change nothing needs the current version.
    expectError(await api.update(agent.id, { version: 1 }), 409, "agent.version_conflict");
    expect((await api.get(agent.id)).body).toMatchObject({ version: 2, system: "two" });
  });

  it("requires the version", async () => {
    const agent = await createAgent(api);
    expectInvalid(await api.update(agent.id, { system: "x" }), ["body.version"]);
    expectInvalid(await api.update(agent.id, { version: 0 }), ["body.version"]);
  });

  it("lets exactly one of two racing updates with the same expected version win", async () => {
    for (let round = 0; round < 5; round++) {
      const agent = await createAgent(api);
      const results = await Promise.all([
        api.update(agent.id, { version: 1, system: "left" }),
        api.update(agent.id, { version: 1, system: "right" }),
      ]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const loser = results.find((r) => r.status === 409)!;
      expectError(loser, 409, "agent.version_conflict");
      const winner = results.find((r) => r.status === 200)!;
      const current = await api.get(agent.id);
      expect(current.body).toMatchObject({ version: 2, system: winner.body.system });
      expect((await api.versions(agent.id)).body.data).toHaveLength(2);
    }
  });
});

describe("clearing signals", () => {
  it("multiagent: null turns the coordinator off", async () => {
    const sub = await createAgent(api, { name: "sub" });
    const coordinator = await createAgent(api, {
      multiagent: { type: "coordinator", roster: [{ agentId: sub.id, role: "helper", mode: "foreground" }] },
    });
    const res = await api.update(coordinator.id, { version: 1, multiagent: null });
    expect(res.body.version).toBe(2);
    expect(res.body).not.toHaveProperty("multiagent");
  });

  it("browser: null returns to the self-hosted browser; recordBrowser false or null turns recording off", async () => {
    const agent = await createAgent(api, { browser: { provider: "provider_a_cloud" }, recordBrowser: true });
    const v2 = await api.update(agent.id, { version: 1, browser: null });
    expect(v2.body).not.toHaveProperty("browser");
    const v3 = await api.update(agent.id, { version: 2, recordBrowser: false });
    expect(v3.body).toMatchObject({ version: 3 });
    expect(v3.body).not.toHaveProperty("recordBrowser");
    const v4 = await api.update(agent.id, { version: 3, recordBrowser: true });
    const v5 = await api.update(agent.id, { version: v4.body.version, recordBrowser: null });
    expect(v5.body).toMatchObject({ version: 5 });
    expect(v5.body).not.toHaveProperty("recordBrowser");
  });

  it("defaults: null clears environment, vaults and memory together", async () => {
    const s = seeds(t);
    const environmentId = await s.environment();
    const vaultId = await s.vault("clear-vault");
    const storeId = await s.memoryStore("clear-store");
    const agent = await createAgent(api, {
      defaults: {
        environmentId,
        vaultIds: [vaultId],
        resources: [{ memoryStoreId: storeId, memoryStoreName: "clear-store", mode: "read-write" }],
      },
    });
    const res = await api.update(agent.id, { version: 1, defaults: null });
    expect(res.body.version).toBe(2);
    expect(res.body).not.toHaveProperty("defaults");
  });

  it("metadata: a key set to an empty string is removed, others merge", async () => {
    const agent = await createAgent(api, { metadata: { a: "1", b: "2" } });
    const res = await api.update(agent.id, { version: 1, metadata: { a: "", c: "3" } });
    expect(res.body.metadata).toEqual({ b: "2", c: "3" });
  });

  it("knowledgeBases: [] unlinks all", async () => {
    const kb = await seeds(t).knowledgeBase();
    const agent = await createAgent(api, { knowledgeBases: [kb] });
    expect(agent.knowledgeBases).toEqual([kb]);
    const res = await api.update(agent.id, { version: 1, knowledgeBases: [] });
    expect(res.body.version).toBe(2);
    expect(res.body).not.toHaveProperty("knowledgeBases");
  });

  it("refuses null everywhere else", async () => {
    const agent = await createAgent(api);
    const fields = [
      "name",
      "description",
      "model",
      "system",
      "tools",
      "mcpServers",
      "toolPermissions",
      "skills",
      "knowledgeBases",
      "serverlessTools",
      "egressPolicy",
      "tts",
      "metadata",
    ];
    for (const field of fields)
      expectInvalid(await api.update(agent.id, { version: 1, [field]: null }), [`body.${field}`]);
    expect((await api.get(agent.id)).body.version).toBe(1);
  });

  it("refuses an empty object where a filled one is needed", async () => {
    const agent = await createAgent(api);
    expectInvalid(await api.update(agent.id, { version: 1, defaults: {} }), ["body.defaults"]);
    expectInvalid(await api.update(agent.id, { version: 1, egressPolicy: {} }), ["body.egressPolicy"]);
    expect((await api.update(agent.id, { version: 1, multiagent: {} })).status).toBe(400);
    expect((await api.update(agent.id, { version: 1, tts: {} })).status).toBe(400);
  });
});

describe("patch rules", () => {
  it("replaces lists and objects whole", async () => {
    const agent = await createAgent(api, {
      tools: ["web_fetch", "memory_read"],
      egressPolicy: { allowedDomains: ["a.example"], deniedDomains: ["b.example"] },
      toolPermissions: { web_fetch: "always_ask" },
    });
    const res = await api.update(agent.id, {
      version: 1,
      tools: ["artifact_write"],
      egressPolicy: { deniedDomains: ["c.example"] },
      toolPermissions: {},
    });
    expect(res.body).toMatchObject({
      version: 2,
      tools: ["artifact_write"],
      egressPolicy: { deniedDomains: ["c.example"] },
      toolPermissions: {},
    });
    expect(res.body.egressPolicy).not.toHaveProperty("allowedDomains");
  });

  it("refuses metadata that would exceed 64 entries after merging", async () => {
    const many = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, "v"]));
    const agent = await createAgent(api, { metadata: many });
    expectInvalid(await api.update(agent.id, { version: 1, metadata: { extra: "v" } }), ["body.metadata"]);
    const swapped = await api.update(agent.id, { version: 1, metadata: { k0: "", extra: "v" } });
    expect(swapped.status).toBe(200);
    expect(Object.keys(swapped.body.metadata)).toHaveLength(64);
  });

  it("answers 404 for an unknown agent", async () => {
    expectError(await api.update("agent_00000000000000000000000000", { version: 1 }), 404, "agent.not_found");
  });
});
