import type { AgentConfig } from "@agent-platform/contract";
import { describe, expect, it } from "vitest";
import {
  type AgentDraft,
  canonicalJson,
  draftOfConfig,
  finalizeConfig,
  sameConfig,
} from "../../src/agents/agent-draft.js";
import { applyAgentPatch, changedFields, mergeMetadata } from "../../src/agents/apply-patch.js";

const base: AgentDraft = {
  name: "Base",
  model: "builtin/echo",
  system: "sys",
  tools: ["web_fetch", "memory_read"],
  mcpServers: [{ name: "docs", url: "https://mcp.example/docs" }],
  knowledgeBases: ["kb_1", "kb_2"],
  defaults: { environmentId: "env_1", vaultIds: ["vault_1"] },
  multiagent: { type: "coordinator", roster: [{ agentId: "agent_1", version: 1, role: "helper", mode: "foreground" }] },
  browser: { provider: "provider_b", region: "eu" },
  recordBrowser: true,
  metadata: { team: "a", tier: "gold" },
};

describe("applyAgentPatch", () => {
  it("keeps omitted fields", () => {
    expect(applyAgentPatch(base, {})).toEqual(base);
    expect(applyAgentPatch(base, { name: "New" })).toEqual({ ...base, name: "New" });
  });

  it("replaces lists whole", () => {
    expect(applyAgentPatch(base, { tools: ["artifact_write"] }).tools).toEqual(["artifact_write"]);
    expect(applyAgentPatch(base, { knowledgeBases: [] }).knowledgeBases).toEqual([]);
    expect(applyAgentPatch(base, { mcpServers: [] }).mcpServers).toEqual([]);
  });

  it("replaces configuration objects whole, without field-level merge", () => {
    const next = applyAgentPatch(base, { defaults: { vaultIds: ["vault_2"] } });
    expect(next.defaults).toEqual({ vaultIds: ["vault_2"] });
    expect(applyAgentPatch(base, { browser: { provider: "self_hosted" } }).browser).toEqual({
      provider: "self_hosted",
    });
  });

  it("merges metadata by key; an empty string removes the key", () => {
    const next = applyAgentPatch(base, { metadata: { tier: "", owner: "me" } });
    expect(next.metadata).toEqual({ team: "a", owner: "me" });
    expect(applyAgentPatch({ ...base, metadata: undefined }, { metadata: { a: "1" } }).metadata).toEqual({ a: "1" });
  });

  it("clears multiagent, browser, defaults and recordBrowser with null", () => {
    const next = applyAgentPatch(base, { multiagent: null, browser: null, defaults: null, recordBrowser: null });
    expect(next).not.toHaveProperty("multiagent");
    expect(next).not.toHaveProperty("browser");
    expect(next).not.toHaveProperty("defaults");
    expect(next).not.toHaveProperty("recordBrowser");
    expect(next.name).toBe("Base");
  });

  it("refuses null anywhere else (the schema never lets it through)", () => {
    expect(() => applyAgentPatch(base, { tools: null } as never)).toThrow(/null is not a clearing signal/);
  });

  it("does not mutate its inputs", () => {
    const before = structuredClone(base);
    applyAgentPatch(base, { metadata: { team: "" }, multiagent: null });
    expect(base).toEqual(before);
  });
});

describe("mergeMetadata", () => {
  it("adds, replaces and removes", () => {
    expect(mergeMetadata({ a: "1", b: "2" }, { b: "3", c: "4", a: "" })).toEqual({ b: "3", c: "4" });
  });
});

describe("changedFields", () => {
  it("names the top-level fields whose value differs, ignoring key order", () => {
    const reordered: AgentDraft = { ...base, defaults: { vaultIds: ["vault_1"], environmentId: "env_1" } };
    expect([...changedFields(base, reordered)]).toEqual([]);
    const next = applyAgentPatch(base, { name: "x", multiagent: null, tools: base.tools });
    expect([...changedFields(base, next)].sort()).toEqual(["multiagent", "name"]);
  });
});

describe("finalizeConfig and sameConfig", () => {
  it("fills list defaults and drops values that mean nothing", () => {
    const config = finalizeConfig(
      {
        name: "x",
        model: "builtin/echo",
        description: "",
        knowledgeBases: [],
        recordBrowser: false,
        metadata: { a: "" },
      },
      new Map(),
    );
    expect(config).toEqual({
      name: "x",
      model: "builtin/echo",
      system: "",
      tools: [],
      mcpServers: [],
      toolPermissions: {},
      skills: [],
      serverlessTools: [],
      metadata: {},
    });
  });

  it("puts the stored header names on MCP servers and leaves them out of the comparison", () => {
    const a = finalizeConfig(base, new Map([["docs", ["Authorization"]]]));
    const b = finalizeConfig(base, new Map());
    expect(a.mcpServers).toEqual([{ name: "docs", url: "https://mcp.example/docs", headerKeys: ["Authorization"] }]);
    expect(sameConfig(a, b)).toBe(true);
    expect(sameConfig(a, finalizeConfig({ ...base, system: "other" }, new Map()))).toBe(false);
  });

  it("round-trips a stored configuration through its draft", () => {
    const config: AgentConfig = finalizeConfig(base, new Map([["docs", ["X-Key"]]]));
    expect(sameConfig(finalizeConfig(draftOfConfig(config), new Map()), config)).toBe(true);
    expect(draftOfConfig(config).mcpServers).toEqual([{ name: "docs", url: "https://mcp.example/docs" }]);
  });

  it("refuses to finalise a roster entry whose version was not resolved", () => {
    const draft: AgentDraft = {
      ...base,
      multiagent: { type: "coordinator", roster: [{ agentId: "agent_1", role: "helper", mode: "foreground" }] },
    };
    expect(() => finalizeConfig(draft, new Map())).toThrow(/not resolved/);
  });

  it("canonicalJson sorts keys at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: 2 } })).toBe('{"a":{"c":2,"d":[{"y":2,"z":1}]},"b":1}');
  });
});
