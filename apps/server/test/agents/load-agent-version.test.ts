import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgentVersion } from "../../src/agents/load-agent-version.js";
import { loadMcpHeaders } from "../../src/agents/mcp-credentials.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type AgentsApi, agentsApi, createAgent } from "./helpers.js";

let t: TestApp;
let api: AgentsApi;
beforeAll(async () => {
  t = await startTestApp();
  api = agentsApi(t);
});
afterAll(async () => {
  await t?.close();
});

describe("loadAgentVersion (for sessions, automations, experiments)", () => {
  it("loads the current version by default and a pinned one on demand", async () => {
    const agent = await createAgent(api, { system: "one" });
    await api.update(agent.id, { version: 1, system: "two" });
    const current = await loadAgentVersion(t.platform.ctx, t.tenant.projectId, agent.id);
    expect(current).toMatchObject({ agentId: agent.id, version: 2, archivedAt: null });
    expect(current.config.system).toBe("two");
    const pinned = await loadAgentVersion(t.platform.ctx, t.tenant.projectId, agent.id, 1);
    expect(pinned.version).toBe(1);
    expect(pinned.config.system).toBe("one");
  });

  it("serves frozen snapshots that a caller cannot corrupt", async () => {
    const agent = await createAgent(api, { tools: ["web_fetch"] });
    const first = await loadAgentVersion(t.platform.ctx, t.tenant.projectId, agent.id, 1);
    expect(() => (first.config.tools as string[]).push("memory_read")).toThrow(TypeError);
    const again = await loadAgentVersion(t.platform.ctx, t.tenant.projectId, agent.id, 1);
    expect(again.config.tools).toEqual(["web_fetch"]);
  });

  it("reports archiving, and throws the agent codes for missing agents and versions", async () => {
    const agent = await createAgent(api);
    await api.archive(agent.id);
    const loaded = await loadAgentVersion(t.platform.ctx, t.tenant.projectId, agent.id);
    expect(loaded.archivedAt).toBeInstanceOf(Date);
    await expect(loadAgentVersion(t.platform.ctx, t.tenant.projectId, agent.id, 4)).rejects.toMatchObject({
      code: "agent.version_not_found",
    });
    const other = await t.newTenant();
    await expect(loadAgentVersion(t.platform.ctx, other.projectId, agent.id)).rejects.toMatchObject({
      code: "agent.not_found",
    });
  });

  it("shows the header names stored today; loadMcpHeaders opens today's values", async () => {
    const agent = await createAgent(api, {
      mcpServers: [{ name: "docs", url: "https://mcp.example", headers: { Authorization: "one" } }],
    });
    await api.rotate(agent.id, "docs", { "X-Extra": "two" });
    const loaded = await loadAgentVersion(t.platform.ctx, t.tenant.projectId, agent.id);
    expect(loaded.config.mcpServers).toEqual([
      { name: "docs", url: "https://mcp.example", headerKeys: ["Authorization", "X-Extra"] },
    ]);
    expect(await loadMcpHeaders(t.platform.ctx, agent.id, "docs")).toEqual({ Authorization: "one", "X-Extra": "two" });
    expect(await loadMcpHeaders(t.platform.ctx, agent.id, "unknown")).toEqual({});
  });
});
