import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMcpHeaders } from "../../src/agents/mcp-credentials.js";
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

const SECRET = "sk-live-THIS-MUST-NEVER-BE-READ-BACK";
const ROTATED = "sk-live-ROTATED-VALUE-NEVER-READ-BACK";

/** The header values in the sealed store, opened with the server's key. */
async function sealedHeaders(agentId: string, serverName: string): Promise<Record<string, string> | null> {
  const row = await t.platform.ctx.db.prisma.agentMcpCredential.findUnique({
    where: { agentId_serverName: { agentId, serverName } },
  });
  if (!row) return null;
  expect(row.sealed).not.toContain(SECRET);
  return t.platform.ctx.secrets.open<Record<string, string>>(row.sealed);
}

async function versionCount(agentId: string): Promise<number> {
  return t.platform.ctx.db.prisma.agentVersion.count({ where: { agentId } });
}

const docs = (headers?: Record<string, string>) => ({
  name: "docs",
  url: "https://mcp.example/docs",
  ...(headers ? { headers } : {}),
});

describe("write-only headers", () => {
  it("seals header values apart from the version and never returns them", async () => {
    const created = await api.create({
      name: "mcp",
      model: "builtin/echo",
      mcpServers: [
        docs({ Authorization: `Bearer ${SECRET}`, "X-Team": "core" }),
        { name: "open", url: "https://o.example" },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain(SECRET);
    expect(created.body.mcpServers).toEqual([
      { name: "docs", url: "https://mcp.example/docs", headerKeys: ["Authorization", "X-Team"] },
      { name: "open", url: "https://o.example", headerKeys: [] },
    ]);
    const id = created.body.id;
    expect(await sealedHeaders(id, "docs")).toEqual({ Authorization: `Bearer ${SECRET}`, "X-Team": "core" });
    expect(await sealedHeaders(id, "open")).toBeNull();

    // The snapshot holds names only.
    const version = await t.platform.ctx.db.prisma.agentVersion.findUniqueOrThrow({
      where: { agentId_version: { agentId: id, version: 1 } },
    });
    expect(JSON.stringify(version.config)).not.toContain(SECRET);

    await api.update(id, { version: 1, system: "v2" });
    const duplicate = await api.duplicate(id);
    const reads = [
      await api.get(id),
      await api.get(id, 1),
      await api.list("?status=all"),
      await api.versions(id),
      duplicate,
      await api.get(duplicate.body.id),
    ];
    for (const res of reads) {
      expect(res.status).toBeLessThan(300);
      expect(res.text).not.toContain(SECRET);
      expect(res.text).toContain("headerKeys");
    }
  });

  it("keeps a server's credential when an update omits its headers and keeps its URL", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET })] });
    const res = await api.update(agent.id, {
      version: 1,
      system: "changed",
      // The same URL written differently (case of the host, default port) is the same URL.
      mcpServers: [
        { name: "docs", url: "https://MCP.example:443/docs" },
        { name: "new", url: "https://n.example" },
      ],
    });
    expect(res.body).toMatchObject({ version: 2 });
    expect(res.body.mcpServers).toEqual([
      { name: "docs", url: "https://MCP.example:443/docs", headerKeys: ["Authorization"] },
      { name: "new", url: "https://n.example", headerKeys: [] },
    ]);
    expect(await sealedHeaders(agent.id, "docs")).toEqual({ Authorization: SECRET });
  });
});

describe("credentials follow the URL", () => {
  it("drops a server's credential when an update moves it to another URL without headers", async () => {
    const agent = await createAgent(api, {
      mcpServers: [docs({ Authorization: SECRET }), { name: "stays", url: "https://s.example", headers: { a: "b" } }],
    });
    const res = await api.update(agent.id, {
      version: 1,
      mcpServers: [
        { name: "docs", url: "https://attacker.example/docs" },
        { name: "stays", url: "https://s.example" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
    expect(res.body.mcpServers).toEqual([
      { name: "docs", url: "https://attacker.example/docs", headerKeys: [] },
      { name: "stays", url: "https://s.example", headerKeys: ["a"] },
    ]);
    expect(await sealedHeaders(agent.id, "docs")).toBeNull();
    expect(await sealedHeaders(agent.id, "stays")).toEqual({ a: "b" });
    // What the runtime would send to the new URL: nothing.
    expect(await loadMcpHeaders(t.platform.ctx, agent.id, "docs")).toEqual({});
    expect((await api.get(agent.id)).body.mcpServers[0].headerKeys).toEqual([]);
  });

  it("treats a path change on the same host as a move too", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET })] });
    const res = await api.update(agent.id, {
      version: 1,
      mcpServers: [{ name: "docs", url: "https://mcp.example/v2" }],
    });
    expect(res.body.mcpServers[0].headerKeys).toEqual([]);
    expect(await sealedHeaders(agent.id, "docs")).toBeNull();
  });

  it("stores the headers sent with the new URL", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET })] });
    const res = await api.update(agent.id, {
      version: 1,
      mcpServers: [{ name: "docs", url: "https://new.example/docs", headers: { Authorization: ROTATED } }],
    });
    expect(res.body.mcpServers[0]).toEqual({
      name: "docs",
      url: "https://new.example/docs",
      headerKeys: ["Authorization"],
    });
    expect(await sealedHeaders(agent.id, "docs")).toEqual({ Authorization: ROTATED });
  });

  it("does not carry a credential over to a renamed server", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET })] });
    const res = await api.update(agent.id, {
      version: 1,
      mcpServers: [{ name: "renamed", url: "https://mcp.example/docs" }],
    });
    expect(res.body.mcpServers).toEqual([{ name: "renamed", url: "https://mcp.example/docs", headerKeys: [] }]);
    expect(await sealedHeaders(agent.id, "docs")).toBeNull();
    expect(await sealedHeaders(agent.id, "renamed")).toBeNull();
  });

  it("does not swap credentials between two servers whose URLs are swapped", async () => {
    const agent = await createAgent(api, {
      mcpServers: [
        { name: "a", url: "https://a.example", headers: { K: "for-a" } },
        { name: "b", url: "https://b.example", headers: { K: "for-b" } },
      ],
    });
    const res = await api.update(agent.id, {
      version: 1,
      mcpServers: [
        { name: "a", url: "https://b.example" },
        { name: "b", url: "https://a.example" },
      ],
    });
    expect(res.body.mcpServers.map((s: { headerKeys: string[] }) => s.headerKeys)).toEqual([[], []]);
    expect(await t.platform.ctx.db.prisma.agentMcpCredential.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("drops the credential when a restore points a server back at another URL, keeps it for the same URL", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET })] });
    // v2: same server at another URL with a new credential; v3: another change, same URL.
    await api.update(agent.id, {
      version: 1,
      mcpServers: [{ name: "docs", url: "https://moved.example/docs", headers: { Authorization: ROTATED } }],
    });
    await api.update(agent.id, { version: 2, system: "v3" });
    // Restoring v2 (same URL as today) keeps today's credential.
    const same = await api.restore(agent.id, 2, 3);
    expect(same.body).toMatchObject({ version: 4 });
    expect(same.body.mcpServers[0].headerKeys).toEqual(["Authorization"]);
    expect(await sealedHeaders(agent.id, "docs")).toEqual({ Authorization: ROTATED });
    // Restoring v1 (the old URL) does not send today's credential there.
    const back = await api.restore(agent.id, 1, 4);
    expect(back.body).toMatchObject({ version: 5 });
    expect(back.body.mcpServers).toEqual([{ name: "docs", url: "https://mcp.example/docs", headerKeys: [] }]);
    expect(await sealedHeaders(agent.id, "docs")).toBeNull();
  });
});

describe("header sets", () => {
  it("replaces the whole header set of a server without publishing a version", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET, "X-Old": "1" })] });
    const res = await api.update(agent.id, { version: 1, mcpServers: [docs({ "X-Api-Key": ROTATED })] });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.mcpServers[0].headerKeys).toEqual(["X-Api-Key"]);
    expect(res.text).not.toContain(ROTATED);
    expect(await sealedHeaders(agent.id, "docs")).toEqual({ "X-Api-Key": ROTATED });
    expect(await versionCount(agent.id)).toBe(1);
    expect((await api.get(agent.id)).body.mcpServers[0].headerKeys).toEqual(["X-Api-Key"]);
    // The lock still applies to a header-only change.
    expectError(
      await api.update(agent.id, { version: 2, mcpServers: [docs({ a: "b" })] }),
      409,
      "agent.version_conflict",
    );
  });

  it("erases a server's credential with headers: {}", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET })] });
    const res = await api.update(agent.id, { version: 1, mcpServers: [docs({})] });
    expect(res.body.version).toBe(1);
    expect(res.body.mcpServers[0].headerKeys).toEqual([]);
    expect(await sealedHeaders(agent.id, "docs")).toBeNull();
  });

  it("deletes the credential of a server removed from the configuration", async () => {
    const agent = await createAgent(api, {
      mcpServers: [docs({ Authorization: SECRET }), { name: "other", url: "https://o.example", headers: { a: "b" } }],
    });
    const res = await api.update(agent.id, { version: 1, mcpServers: [{ name: "other", url: "https://o.example" }] });
    expect(res.body.version).toBe(2);
    expect(await sealedHeaders(agent.id, "docs")).toBeNull();
    expect(await sealedHeaders(agent.id, "other")).toEqual({ a: "b" });
  });

  it("refuses header names given twice in different case and line breaks in values", async () => {
    expectInvalid(
      await api.create({ name: "x", model: "builtin/echo", mcpServers: [docs({ "X-Key": "a", "x-key": "b" })] }),
      ["body.mcpServers.0.headers"],
    );
    expect(
      (await api.create({ name: "x", model: "builtin/echo", mcpServers: [docs({ "X-Key": "a\r\nInjected: 1" })] }))
        .status,
    ).toBe(400);
  });
});

describe("rotation", () => {
  it("merges by name, publishes nothing, and is visible in the sealed store at once", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET, "X-Team": "core" })] });
    await api.update(agent.id, { version: 1, system: "v2" });
    const res = await api.rotate(agent.id, "docs", { authorization: ROTATED, "X-New": "n" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      agentId: agent.id,
      serverName: "docs",
      version: 2,
      headerKeys: ["authorization", "X-New", "X-Team"],
    });
    expect(res.text).not.toContain(ROTATED);
    expect(await sealedHeaders(agent.id, "docs")).toEqual({ authorization: ROTATED, "X-New": "n", "X-Team": "core" });
    expect(await loadMcpHeaders(t.platform.ctx, agent.id, "docs")).toEqual({
      authorization: ROTATED,
      "X-New": "n",
      "X-Team": "core",
    });
    expect(await versionCount(agent.id)).toBe(2);
    const current = await api.get(agent.id);
    expect(current.body.version).toBe(2);
    expect(current.body.mcpServers[0].headerKeys).toEqual(["authorization", "X-New", "X-Team"]);
  });

  it("sets headers on a server that had none", async () => {
    const agent = await createAgent(api, { mcpServers: [docs()] });
    const res = await api.rotate(agent.id, "docs", { Authorization: ROTATED });
    expect(res.body).toMatchObject({ version: 1, headerKeys: ["Authorization"] });
    expect(await sealedHeaders(agent.id, "docs")).toEqual({ Authorization: ROTATED });
  });

  it("needs at least one header", async () => {
    const agent = await createAgent(api, { mcpServers: [docs()] });
    expectInvalid(await api.rotate(agent.id, "docs", {}), ["body.headers"]);
    expectInvalid(await t.http.put(`${api.base}/${agent.id}/mcp-servers/docs/headers`).set(t.tenant.auth).send({}), [
      "body.headers",
    ]);
  });

  it("answers 404 agent.mcp_server_not_found for a server the current version does not declare", async () => {
    const agent = await createAgent(api, { mcpServers: [docs(), { name: "gone", url: "https://g.example" }] });
    await api.update(agent.id, { version: 1, mcpServers: [docs()] });
    const res = await api.rotate(agent.id, "gone", { a: "b" });
    expectError(res, 404, "agent.mcp_server_not_found");
    expectError(await api.rotate(agent.id, "never", { a: "b" }), 404, "agent.mcp_server_not_found");
    expect(await sealedHeaders(agent.id, "gone")).toBeNull();
    expectError(await api.rotate("agent_00000000000000000000000000", "docs", { a: "b" }), 404, "agent.not_found");
  });

  it("is never rolled back by a restore", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET })] });
    await api.update(agent.id, { version: 1, system: "v2" });
    await api.rotate(agent.id, "docs", { Authorization: ROTATED });
    const restored = await api.restore(agent.id, 1, 2);
    expect(restored.body).toMatchObject({ version: 3, system: "" });
    expect(restored.body.mcpServers[0].headerKeys).toEqual(["Authorization"]);
    expect(await sealedHeaders(agent.id, "docs")).toEqual({ Authorization: ROTATED });
  });

  it("serialises concurrent rotations so no merge is lost", async () => {
    const agent = await createAgent(api, { mcpServers: [docs()] });
    const names = Array.from({ length: 8 }, (_, i) => `X-H${i}`);
    const results = await Promise.all(names.map((name) => api.rotate(agent.id, "docs", { [name]: "v" })));
    for (const res of results) expect(res.status).toBe(200);
    expect(Object.keys((await sealedHeaders(agent.id, "docs"))!).sort()).toEqual(names);
  });
});

describe("duplicate copies credentials", () => {
  it("gives the clone the source's current sealed credentials, independent afterwards", async () => {
    const agent = await createAgent(api, { mcpServers: [docs({ Authorization: SECRET })] });
    await api.rotate(agent.id, "docs", { Authorization: ROTATED });
    const clone = await api.duplicate(agent.id);
    expect(clone.status).toBe(201);
    expect(clone.body.mcpServers[0].headerKeys).toEqual(["Authorization"]);
    expect(await sealedHeaders(clone.body.id, "docs")).toEqual({ Authorization: ROTATED });
    await api.rotate(agent.id, "docs", { Authorization: "changed-on-source" });
    expect(await sealedHeaders(clone.body.id, "docs")).toEqual({ Authorization: ROTATED });
  });
});
