import { ApiError, paginate } from "@agent-platform/sdk";
import { createClient } from "@agent-platform/sdk/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("agents through the SDK", () => {
  it("creates, patches, restores, rotates, duplicates, archives and lists with typed calls", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const projectId = t.tenant.projectId;
    const created = await client.agents.create({
      params: { projectId },
      body: {
        name: "sdk",
        model: "builtin/echo",
        mcpServers: [{ name: "docs", url: "https://mcp.example", headers: { Authorization: "x" } }],
      },
    });
    expect(created.version).toBe(1);
    const id = created.id;
    const updated = await client.agents.update({ params: { projectId, id }, body: { version: 1, system: "two" } });
    expect(updated.version).toBe(2);
    const restored = await client.agents.restore({ params: { projectId, id, version: "1" }, body: { version: 2 } });
    expect(restored).toMatchObject({ version: 3, system: "" });
    const rotation = await client.agents.rotateMcpHeaders({
      params: { projectId, id, name: "docs" },
      body: { headers: { "X-Extra": "y" } },
    });
    expect(rotation).toEqual({ agentId: id, serverName: "docs", version: 3, headerKeys: ["Authorization", "X-Extra"] });
    const clone = await client.agents.duplicate({ params: { projectId, id }, body: {} });
    expect(clone.name).toBe("sdk (cópia)");
    const archived = await client.agents.archive({ params: { projectId, id }, body: {} });
    expect(archived.archivedAt).not.toBeNull();
    const old = await client.agents.get({ params: { projectId, id }, query: { version: 1 } });
    expect(old.version).toBe(1);

    const versions: number[] = [];
    for await (const v of paginate(client.agents.listVersions, { params: { projectId, id }, query: { limit: 1 } })) {
      versions.push(v.version);
    }
    expect(versions).toEqual([3, 2, 1]);
    const all: string[] = [];
    for await (const a of paginate(client.agents.list, {
      params: { projectId },
      query: { status: "all" as const, limit: 1 },
    })) {
      all.push(a.id);
    }
    expect(all).toEqual([clone.id, id]);
  });

  it("surfaces agent error codes as ApiError", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const projectId = t.tenant.projectId;
    const agent = await client.agents.create({ params: { projectId }, body: { name: "e", model: "builtin/echo" } });
    await client.agents.update({ params: { projectId, id: agent.id }, body: { version: 1, system: "x" } });
    const error = await client.agents
      .update({ params: { projectId, id: agent.id }, body: { version: 1, system: "y" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: "agent.version_conflict" });
  });
});
