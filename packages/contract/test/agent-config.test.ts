import { describe, expect, it } from "vitest";
import { CreateAgentSchema, UpdateAgentSchema } from "../src/agents/config.js";
import { PageQuerySchema } from "../src/common/pagination.js";

const base = { name: "Helper", model: "builtin/echo" };

function issues(result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) {
  return result.success ? [] : result.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("agent configuration schema", () => {
  it("requires name and model", () => {
    const result = CreateAgentSchema.safeParse({});
    expect(issues(result).map((i) => i.split(":")[0])).toEqual(expect.arrayContaining(["name", "model"]));
  });

  it("accepts built-in and custom tools with unique names, refuses duplicates", () => {
    const custom = { type: "custom", name: "lookup", description: "Look up", inputSchema: { type: "object" } };
    expect(CreateAgentSchema.safeParse({ ...base, tools: ["web_fetch", custom] }).success).toBe(true);
    expect(issues(CreateAgentSchema.safeParse({ ...base, tools: ["web_fetch", "web_fetch"] }))).toEqual([
      "tools: tool names must be unique",
    ]);
    expect(CreateAgentSchema.safeParse({ ...base, tools: ["rm_rf"] }).success).toBe(false);
  });

  it("refuses MCP server names with `__` and duplicate server names", () => {
    const server = (name: string) => ({ name, url: "https://mcp.example.com/mcp" });
    expect(CreateAgentSchema.safeParse({ ...base, mcpServers: [server("a__b")] }).success).toBe(false);
    expect(CreateAgentSchema.safeParse({ ...base, mcpServers: [server("a"), server("a")] }).success).toBe(false);
    expect(CreateAgentSchema.safeParse({ ...base, mcpServers: [server("a"), server("b")] }).success).toBe(true);
  });

  it("bounds roster roles to kebab-case of at most 48 characters", () => {
    const roster = (role: string) => ({
      type: "coordinator",
      roster: [{ agentId: "agent_x", role, mode: "foreground" }],
    });
    expect(CreateAgentSchema.safeParse({ ...base, multiagent: roster("research-helper") }).success).toBe(true);
    expect(CreateAgentSchema.safeParse({ ...base, multiagent: roster("Research") }).success).toBe(false);
    expect(CreateAgentSchema.safeParse({ ...base, multiagent: roster("a".repeat(49)) }).success).toBe(false);
  });

  it("accepts null only in the clearing fields of an update", () => {
    for (const field of ["multiagent", "browser", "defaults", "recordBrowser"]) {
      expect(UpdateAgentSchema.safeParse({ version: 1, [field]: null }).success).toBe(true);
    }
    for (const field of ["tools", "metadata", "knowledgeBases", "name", "model", "skills"]) {
      expect(UpdateAgentSchema.safeParse({ version: 1, [field]: null }).success).toBe(false);
    }
  });

  it("refuses an empty defaults object", () => {
    expect(UpdateAgentSchema.safeParse({ version: 1, defaults: {} }).success).toBe(false);
  });

  it("enforces the spec's list limits", () => {
    const kbs = Array.from({ length: 21 }, (_, i) => `kb_${i}`);
    expect(CreateAgentSchema.safeParse({ ...base, knowledgeBases: kbs }).success).toBe(false);
    expect(CreateAgentSchema.safeParse({ ...base, name: "x".repeat(201) }).success).toBe(false);
    expect(CreateAgentSchema.safeParse({ ...base, description: "x".repeat(2001) }).success).toBe(false);
  });
});

describe("page query", () => {
  it("defaults limit to 20 and bounds it to 1..100", () => {
    expect(PageQuerySchema.parse({}).limit).toBe(20);
    expect(PageQuerySchema.parse({ limit: "100" }).limit).toBe(100);
    expect(PageQuerySchema.safeParse({ limit: "0" }).success).toBe(false);
    expect(PageQuerySchema.safeParse({ limit: "101" }).success).toBe(false);
  });
});
