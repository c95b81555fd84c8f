import { contract } from "@agent-platform/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type AgentsApi, agentsApi } from "./helpers.js";

// Agent creation is served without ts-rest's response re-validation (it is W1's hot path): this checks that what it
// sends is exactly what the contract says, with no field the contract does not declare, for every configuration field.
let t: TestApp;
let api: AgentsApi;
beforeAll(async () => {
  t = await startTestApp();
  api = agentsApi(t);
});
afterAll(async () => {
  await t?.close();
});

function conforms(body: unknown) {
  const result = contract.agents.create.responses[201].safeParse(body);
  expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  // Zod drops keys a schema does not declare, so equality means the body has none.
  expect(result.data).toEqual(body);
}

describe("agent creation's response matches the contract", () => {
  it.each([
    ["the fewest fields", { name: "Least", model: "builtin/echo" }],
    [
      "every configuration field",
      {
        name: "Full",
        description: "All the fields",
        model: { id: "echo", provider: "builtin", temperature: 0.2, maxOutputTokens: 100 },
        system: "You help.",
        tools: [
          "web_fetch",
          "memory_read",
          { type: "custom", name: "lookup", description: "Look up", inputSchema: { type: "object", properties: {} } },
        ],
        mcpServers: [
          { name: "docs", url: "https://mcp.example/docs" },
          { name: "crm", url: "https://mcp.example/crm", headers: { Authorization: "Bearer secret" } },
        ],
        toolPermissions: { web_fetch: "always_ask", docs__search: "always_allow" },
        egressPolicy: { allowedDomains: ["example.com"] },
        browser: { provider: "provider_b", region: "eu" },
        recordBrowser: true,
        tts: { voice: "alloy", language: "en" },
        metadata: { a: "1", b: "2" },
        guardrails: [{ stage: "input", check: { type: "pii", kinds: ["card_number"] }, action: "redact" }],
      },
    ],
    [
      "empty values that mean nothing",
      { name: "Empty", model: "builtin/echo", description: "", metadata: { drop: "" }, recordBrowser: false },
    ],
  ])("%s", async (_, body) => {
    const res = await api.create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    conforms(res.body);
    // The header values are never sent back, only their names.
    expect(JSON.stringify(res.body)).not.toContain("Bearer secret");
  });
});
