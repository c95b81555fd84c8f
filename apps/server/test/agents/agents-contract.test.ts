import { AgentSchema, contract } from "@agent-platform/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZodTypeAny } from "zod";
import { newId } from "../../src/ids.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type AgentsApi, agentsApi, createAgent, seeds } from "./helpers.js";

// Agent creation and reads (get, list, list versions) are served without ts-rest's response re-validation: this checks
// that what they send is exactly what the contract says, with no field the contract does not declare, for every
// configuration field; for reads also in the order the re-validation gave (what the routes sent when they had it).
let t: TestApp;
let api: AgentsApi;
beforeAll(async () => {
  t = await startTestApp();
  api = agentsApi(t);
});
afterAll(async () => {
  await t?.close();
});

function conforms(body: unknown, schema: ZodTypeAny = contract.agents.create.responses[201]) {
  const result = schema.safeParse(body);
  expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  // Zod drops keys a schema does not declare, so equality means the body has none.
  expect(result.data).toEqual(body);
  return result.data;
}

/** Conforms, and is exactly what the re-validation sent: same keys in the same order at every depth. */
function sameAsRevalidated(route: { responses: Record<number, unknown> }, body: unknown) {
  expect(JSON.stringify(body)).toBe(JSON.stringify(conforms(body, route.responses[200] as ZodTypeAny)));
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

describe("agent reads' responses match the contract", () => {
  /** Every configuration field, references included. */
  async function everyField(): Promise<Record<string, unknown>> {
    const s = seeds(t);
    const helper = await createAgent(api, { name: "Helper" });
    await s.vault("contract-vault");
    await s.memoryStore("contract-notes");
    return {
      name: "Every field",
      description: "All the fields",
      model: { id: "echo", provider: "builtin", temperature: 0.2, maxOutputTokens: 100 },
      system: "You help.",
      tools: [
        "web_fetch",
        {
          type: "custom",
          name: "lookup",
          description: "Look up",
          inputSchema: { type: "object", required: ["q"], properties: { q: { type: "string" } } },
        },
      ],
      mcpServers: [
        { name: "docs", url: "https://mcp.example/docs" },
        { name: "crm", url: "https://mcp.example/crm", headers: { "X-Zeta": "z", Authorization: "Bearer secret" } },
      ],
      toolPermissions: { web_fetch: "always_ask", docs__search: "always_allow" },
      skills: [{ skillId: await s.skill(1), version: 1 }],
      knowledgeBases: [await s.knowledgeBase("contract-kb")],
      serverlessTools: [{ toolId: await s.serverlessTool(1), version: 1 }],
      egressPolicy: { deniedDomains: ["bad.example"], allowedDomains: ["example.com"] },
      defaults: {
        environmentId: await s.environment("contract-env"),
        vaultIds: ["contract-vault"],
        resources: [{ memoryStoreId: "contract-notes", memoryStoreName: "contract-notes", mode: "read-write" }],
      },
      multiagent: {
        type: "coordinator",
        roster: [{ agentId: helper.id, role: "helper", mode: "foreground", readonly: true }],
        budget: { maxDelegations: 3 },
      },
      browser: { region: "eu", provider: "provider_b", viewport: { height: 800, width: 1280 } },
      recordBrowser: true,
      tts: { voice: "alloy", language: "en", speed: 1.5 },
      metadata: { b: "2", a: "1" },
      guardrails: [{ stage: "input", check: { type: "pii", kinds: ["card_number"] }, action: "redact" }],
    };
  }

  /**
   * A copy of the agent written straight into the database, as another process would have: its versions are not in
   * this process's cache, so reads parse them from the stored JSON (whose object keys PostgreSQL reorders).
   */
  async function copiedInDatabase(agentId: string): Promise<string> {
    const prisma = t.platform.ctx.db.prisma;
    const source = await prisma.agent.findUniqueOrThrow({
      where: { id: agentId },
      include: { versions: true, credentials: true },
    });
    const id = newId("agent");
    await prisma.agent.create({
      data: {
        ...source,
        id,
        versions: { create: source.versions.map(({ agentId: _, config, ...v }) => ({ ...v, config: config ?? {} })) },
        credentials: { create: source.credentials.map(({ agentId: _, ...c }) => c) },
      },
    });
    return id;
  }

  it("get, get at a version, list, list versions: every field, in the contract's order", async () => {
    const created = await createAgent(api, await everyField());
    const updated = await api.update(created.id, { version: 1, system: "Second.", metadata: { c: "3" } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    await api.archive((await createAgent(api, { name: "Archived" })).id);

    for (const id of [created.id, await copiedInDatabase(created.id)]) {
      const current = await api.get(id);
      expect(current.status).toBe(200);
      // Every field the contract declares is there, in its order: no field of the record goes unchecked.
      expect(Object.keys(current.body)).toEqual(Object.keys(AgentSchema.shape));
      expect(current.body.mcpServers).toEqual([
        { name: "docs", url: "https://mcp.example/docs", headerKeys: [] },
        { name: "crm", url: "https://mcp.example/crm", headerKeys: ["Authorization", "X-Zeta"] },
      ]);
      expect(JSON.stringify(current.body)).not.toContain("Bearer secret");
      sameAsRevalidated(contract.agents.get, current.body);

      const first = await api.get(id, 1);
      expect(first.body.version).toBe(1);
      sameAsRevalidated(contract.agents.get, first.body);

      const versions = await api.versions(id);
      expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
      sameAsRevalidated(contract.agents.listVersions, versions.body);
      const page = await api.versions(id, "?limit=1");
      expect(page.body.nextCursor).toEqual(expect.any(String));
      sameAsRevalidated(contract.agents.listVersions, page.body);
    }
    for (const query of ["?status=all", "?status=archived", "?name=every&limit=1"]) {
      const list = await api.list(query);
      expect(list.body.data.length).toBeGreaterThan(0);
      sameAsRevalidated(contract.agents.list, list.body);
    }
  });
});
