import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type AgentsApi, agentsApi, createAgent, expectError, expectInvalid } from "./helpers.js";

let t: TestApp;
let api: AgentsApi;
beforeAll(async () => {
  t = await startTestApp();
  api = agentsApi(t);
});
afterAll(async () => {
  await t?.close();
});

describe("create and read", () => {
  it("creates version 1 with defaults filled and returns the record", async () => {
    const res = await api.create({
      name: "Support",
      model: "builtin/echo",
      system: "Be brief",
      metadata: { team: "a" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^agent_[0-9a-z]{26}$/),
      projectId: t.tenant.projectId,
      version: 1,
      name: "Support",
      model: "builtin/echo",
      system: "Be brief",
      tools: [],
      mcpServers: [],
      toolPermissions: {},
      skills: [],
      serverlessTools: [],
      metadata: { team: "a" },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
      archivedAt: null,
    });
    const got = await api.get(res.body.id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it("stores every configuration field as given", async () => {
    const body = {
      name: "Full",
      description: "All the fields",
      model: { id: "echo", provider: "builtin", temperature: 0.2, maxOutputTokens: 100 },
      system: "You help.",
      tools: [
        "web_fetch",
        "memory_read",
        { type: "custom", name: "lookup", description: "Look up", inputSchema: { type: "object", properties: {} } },
      ],
      mcpServers: [{ name: "docs", url: "https://mcp.example/docs" }],
      toolPermissions: { web_fetch: "always_ask", docs__search: "always_allow" },
      egressPolicy: { allowedDomains: ["example.com"] },
      browser: { provider: "provider_b", region: "eu" },
      recordBrowser: true,
      tts: { voice: "alloy", language: "en" },
      metadata: { a: "1", b: "2" },
    };
    const agent = await createAgent(api, body);
    const { mcpServers, ...rest } = body;
    expect(agent).toMatchObject(rest);
    expect(agent.mcpServers).toEqual([{ name: "docs", url: "https://mcp.example/docs", headerKeys: [] }]);
  });

  it("drops empty values that mean nothing (empty description, metadata set to '', recordBrowser false)", async () => {
    const agent = await createAgent(api, {
      description: "",
      metadata: { keep: "x", drop: "" },
      recordBrowser: false,
      knowledgeBases: [],
    });
    expect(agent.description).toBeUndefined();
    expect(agent.recordBrowser).toBeUndefined();
    expect(agent.knowledgeBases).toBeUndefined();
    expect(agent.metadata).toEqual({ keep: "x" });
  });

  it("answers an unknown agent and an unknown version with 404", async () => {
    expectError(await api.get("agent_00000000000000000000000000"), 404, "agent.not_found");
    const agent = await createAgent(api);
    expectError(await api.get(agent.id, 2), 404, "agent.version_not_found");
    expectError(await api.versions("agent_00000000000000000000000000"), 404, "agent.not_found");
  });

  it("answers a forged version cursor with 400, never a database error", async () => {
    const agent = await createAgent(api);
    // The cursor's filter hash is not a secret: anyone can build one with a key of the wrong type.
    const filters = createHash("sha256").update("[]").digest("base64url").slice(0, 12);
    for (const k of ["not-a-version", 1.5]) {
      const cursor = Buffer.from(JSON.stringify({ k, f: filters })).toString("base64url");
      expectInvalid(await api.versions(agent.id, `?cursor=${cursor}`), ["query.cursor"]);
    }
    const page = await api.versions(
      agent.id,
      `?cursor=${Buffer.from(JSON.stringify({ k: 2, f: filters })).toString("base64url")}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.data.map((v: { version: number }) => v.version)).toEqual([1]);
  });

  it("answers a list cursor whose key is a number with 400, as any forged cursor", async () => {
    // The hash of the list's default filters: only the key's type is wrong.
    const filters = createHash("sha256").update('[["status","active"]]').digest("base64url").slice(0, 12);
    const cursor = (k: unknown) => Buffer.from(JSON.stringify({ k, f: filters })).toString("base64url");
    expect((await api.list(`?cursor=${cursor("agent_zzzzzzzzzzzzzzzzzzzzzzzzzz")}`)).status).toBe(200);
    expectInvalid(await api.list(`?cursor=${cursor(5)}`), ["query.cursor"]);
  });
});

describe("schema limits", () => {
  it("requires name and model and refuses unknown fields", async () => {
    expectInvalid(await api.create({}), ["body.name", "body.model"]);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", color: "red" }), ["body"]);
  });

  it("bounds name and description", async () => {
    expectInvalid(await api.create({ name: "", model: "builtin/echo" }), ["body.name"]);
    expectInvalid(await api.create({ name: "n".repeat(201), model: "builtin/echo" }), ["body.name"]);
    expect((await api.create({ name: "n".repeat(200), model: "builtin/echo" })).status).toBe(201);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", description: "d".repeat(2001) }), [
      "body.description",
    ]);
  });

  it("bounds tools: at most 128, unique names, known built-ins, reserved names refused", async () => {
    const custom = (name: string) => ({ type: "custom", name, description: "d", inputSchema: {} });
    const tooMany = Array.from({ length: 129 }, (_, i) => custom(`t${i}`));
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", tools: tooMany }), ["body.tools"]);
    const exactly = Array.from({ length: 128 }, (_, i) => custom(`t${i}`));
    expect((await api.create({ name: "x", model: "builtin/echo", tools: exactly })).status).toBe(201);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", tools: [custom("a"), custom("a")] }), [
      "body.tools",
    ]);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", tools: ["web_fetch", "web_fetch"] }), [
      "body.tools",
    ]);
    expect((await api.create({ name: "x", model: "builtin/echo", tools: ["teleport"] })).status).toBe(400);
    for (const name of ["web_fetch", "a__b", "delegate_to_x"]) {
      expect((await api.create({ name: "x", model: "builtin/echo", tools: [custom(name)] })).status).toBe(400);
    }
  });

  it("bounds skills (64), serverless tools (64), knowledge bases (20)", async () => {
    const skills = Array.from({ length: 65 }, (_, i) => ({ skillId: `skill_${i}`, version: 1 }));
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", skills }), ["body.skills"]);
    const serverlessTools = Array.from({ length: 65 }, (_, i) => ({ toolId: `stool_${i}`, version: 1 }));
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", serverlessTools }), ["body.serverlessTools"]);
    const knowledgeBases = Array.from({ length: 21 }, (_, i) => `kb_${i}`);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", knowledgeBases }), ["body.knowledgeBases"]);
  });

  it("bounds defaults (16 vaults, 16 resources) and the roster (20 entries, kebab-case roles up to 48)", async () => {
    const vaultIds = Array.from({ length: 17 }, (_, i) => `v${i}`);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", defaults: { vaultIds } }), [
      "body.defaults.vaultIds",
    ]);
    const resources = Array.from({ length: 17 }, (_, i) => ({
      memoryStoreId: `m${i}`,
      memoryStoreName: `m${i}`,
      mode: "read-only",
    }));
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", defaults: { resources } }), [
      "body.defaults.resources",
    ]);
    const entry = (role: string) => ({ agentId: "agent_x", role, mode: "foreground" });
    const roster = Array.from({ length: 21 }, (_, i) => entry(`r${i}`));
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", multiagent: { type: "coordinator", roster } }), [
      "body.multiagent.roster",
    ]);
    for (const role of ["Not_Kebab", "a".repeat(49), "-x"]) {
      const res = await api.create({
        name: "x",
        model: "builtin/echo",
        multiagent: { type: "coordinator", roster: [entry(role)] },
      });
      expectInvalid(res, ["body.multiagent.roster.0.role"]);
    }
    const dup = await api.create({
      name: "x",
      model: "builtin/echo",
      multiagent: { type: "coordinator", roster: [entry("same"), entry("same")] },
    });
    expectInvalid(dup, ["body.multiagent.roster"]);
  });

  it("validates MCP servers: unique names, no `__`, http(s) URLs", async () => {
    const server = (name: string, url = "https://mcp.example") => ({ name, url });
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", mcpServers: [server("a"), server("a")] }), [
      "body.mcpServers",
    ]);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", mcpServers: [server("a__b")] }), [
      "body.mcpServers.0.name",
    ]);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", mcpServers: [server("a", "ftp://x")] }), [
      "body.mcpServers.0.url",
    ]);
  });

  it("validates toolPermissions for form only", async () => {
    const ok = await api.create({
      name: "x",
      model: "builtin/echo",
      toolPermissions: { not_offered: "always_ask", github__create_issue: "always_allow" },
    });
    expect(ok.status).toBe(201);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", toolPermissions: { a: "deny" } }), [
      "body.toolPermissions.a",
    ]);
  });

  it("refuses empty objects where a filled one is needed", async () => {
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", defaults: {} }), ["body.defaults"]);
    expectInvalid(await api.create({ name: "x", model: "builtin/echo", egressPolicy: {} }), ["body.egressPolicy"]);
    expect((await api.create({ name: "x", model: "builtin/echo", tts: {} })).status).toBe(400);
    expect((await api.create({ name: "x", model: "builtin/echo", multiagent: {} })).status).toBe(400);
  });

  it("refuses null on create", async () => {
    expect((await api.create({ name: "x", model: "builtin/echo", multiagent: null })).status).toBe(400);
  });
});

describe("list", () => {
  it("lists newest first with cursor pagination, filters by status and name", async () => {
    const tenant = await t.newTenant();
    const own = agentsApi(t, tenant);
    const a = await createAgent(own, { name: "Alpha helper" });
    const b = await createAgent(own, { name: "beta" });
    const c = await createAgent(own, { name: "ALPHA two" });
    expect((await own.archive(b.id)).status).toBe(200);

    const active = await own.list();
    expect(active.body.data.map((x: { id: string }) => x.id)).toEqual([c.id, a.id]);
    expect(active.body).toMatchObject({ hasMore: false, nextCursor: null });

    const archived = await own.list("?status=archived");
    expect(archived.body.data.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect(archived.body.data[0].archivedAt).not.toBeNull();

    const all = await own.list("?status=all");
    expect(all.body.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);

    const named = await own.list("?status=all&name=alpha");
    expect(named.body.data.map((x: { id: string }) => x.id)).toEqual([c.id, a.id]);

    const page1 = await own.list("?status=all&limit=2");
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await own.list(`?status=all&limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
    expect(page2.body).toMatchObject({ hasMore: false, nextCursor: null });

    expectError(await own.list(`?status=active&limit=2&cursor=${page1.body.nextCursor}`), 400, "request.invalid");
    expectInvalid(await own.list("?status=deleted"), ["query.status"]);
    expectInvalid(await own.list("?limit=101"), ["query.limit"]);
  });

  it("treats name filter wildcards literally", async () => {
    const tenant = await t.newTenant();
    const own = agentsApi(t, tenant);
    await createAgent(own, { name: "plain" });
    const pct = await createAgent(own, { name: "100% sure" });
    expect((await own.list("?name=%25")).body.data.map((x: { id: string }) => x.id)).toEqual([pct.id]);
    expect((await own.list("?name=_")).body.data).toEqual([]);
  });
});

describe("archive", () => {
  it("archives idempotently and keeps the first archive time", async () => {
    const agent = await createAgent(api);
    const first = await api.archive(agent.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: agent.id, version: 1, archivedAt: expect.any(String) });
    const second = await t.http.post(`${api.base}/${agent.id}/archive`).set(t.tenant.auth);
    expect(second.status).toBe(200);
    expect(second.body.archivedAt).toBe(first.body.archivedAt);
    expect((await api.get(agent.id)).body.archivedAt).toBe(first.body.archivedAt);
  });

  it("refuses a body with fields and an unknown agent", async () => {
    const agent = await createAgent(api);
    expectInvalid(await t.http.post(`${api.base}/${agent.id}/archive`).set(t.tenant.auth).send({ now: true }), [
      "body",
    ]);
    expectError(await api.archive("agent_00000000000000000000000000"), 404, "agent.not_found");
  });

  it("refuses every write to an archived agent with 409 agent.archived", async () => {
    const agent = await createAgent(api, { mcpServers: [{ name: "docs", url: "https://mcp.example" }] });
    await api.archive(agent.id);
    expectError(await api.update(agent.id, { version: 1, name: "new" }), 409, "agent.archived");
    expectError(await api.restore(agent.id, 1, 1), 409, "agent.archived");
    expectError(await api.rotate(agent.id, "docs", { Authorization: "x" }), 409, "agent.archived");
  });
});

describe("security", () => {
  it("needs a key", async () => {
    const agent = await createAgent(api);
    const calls = [
      t.http.get(api.base),
      t.http.post(api.base).send({ name: "x", model: "builtin/echo" }),
      t.http.get(`${api.base}/${agent.id}`),
      t.http.post(`${api.base}/${agent.id}`).send({ version: 1 }),
      t.http.post(`${api.base}/${agent.id}/duplicate`).send({}),
      t.http.post(`${api.base}/${agent.id}/archive`).send({}),
      t.http.post(`${api.base}/${agent.id}/versions/1/restore`).send({ version: 1 }),
      t.http.put(`${api.base}/${agent.id}/mcp-servers/x/headers`).send({ headers: { a: "b" } }),
      t.http.get(`${api.base}/${agent.id}/versions`),
    ];
    for (const res of await Promise.all(calls)) expectError(res, 401, "auth.unauthorized");
    expectError(await t.http.get(api.base).set({ Authorization: "Bearer ap_wrong" }), 401, "auth.unauthorized");
  });

  it("hides another project's agents behind 404 agent.not_found", async () => {
    const agent = await createAgent(api, { mcpServers: [{ name: "docs", url: "https://mcp.example" }] });
    const other = await t.newTenant("member");
    const theirs = agentsApi(t, other);
    // Through their own project: the agent is simply not there.
    expectError(await theirs.get(agent.id), 404, "agent.not_found");
    expectError(await theirs.update(agent.id, { version: 1, name: "x" }), 404, "agent.not_found");
    expectError(await theirs.duplicate(agent.id), 404, "agent.not_found");
    expectError(await theirs.archive(agent.id), 404, "agent.not_found");
    expectError(await theirs.restore(agent.id, 1, 1), 404, "agent.not_found");
    expectError(await theirs.rotate(agent.id, "docs", { a: "b" }), 404, "agent.not_found");
    expectError(await theirs.versions(agent.id), 404, "agent.not_found");
    expect((await theirs.list("?status=all")).body.data).toEqual([]);
    // Through our project's path with their key.
    const ours = `${api.base}/${agent.id}`;
    expectError(await t.http.get(ours).set(other.auth), 404, "agent.not_found");
    expectError(await t.http.get(api.base).set(other.auth), 404, "agent.not_found");
    expectError(
      await t.http.post(api.base).set(other.auth).send({ name: "x", model: "builtin/echo" }),
      404,
      "agent.not_found",
    );
    // Nothing changed.
    expect((await api.get(agent.id)).body).toMatchObject({ version: 1, archivedAt: null });
  });
});
