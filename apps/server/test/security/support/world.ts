import { expect } from "vitest";
import type { Tenant } from "../../support/factories.js";
import type { TestApp } from "../../support/test-app.js";

/** Known secret values planted in a world; a scan must find none of them anywhere but where they were sent. */
export interface PlantedSecrets {
  vault: string;
  mcpHeader: string;
  serverlessVault: string;
  createdKey: string;
}

/** One tenant with one resource of every area, created through the API; `ids` fills route parameters. */
export interface World {
  tenant: Tenant;
  ids: Record<string, string>;
  secrets: PlantedSecrets;
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests
type Body = any;

/**
 * Seeds every area for `tenant` (admin): vault with secrets, environment, memory store and entry, knowledge base and
 * document, dataset and cases, budget, serverless tool (with the vault), skill, agent with an MCP server and its
 * credential, session, automation (with a manual run requested), experiment, webhook endpoint (with a test delivery), a second API key. `mcpUrl` / `toolUrl` are where the agent's MCP server and serverless tool live.
 */
export async function seedWorld(
  t: TestApp,
  tenant: Tenant,
  options: {
    tag: string;
    mcpUrl: string;
    toolUrl: string;
    /** The agent's model (default `builtin/echo`). */
    model?: string;
    /** Every response body of the seeding, for scans. */
    record?: (text: string) => void;
  },
): Promise<World> {
  const { tag } = options;
  const send = async (method: "post" | "put", path: string, body: object, status = method === "post" ? 201 : 200) => {
    const res = await t.http[method](path).set(tenant.auth).send(body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
    options.record?.(res.text);
    return res.body as Body;
  };
  const base = tenant.base;
  const secrets: PlantedSecrets = {
    vault: `vault-secret-${tag}-7f3a9c`,
    mcpHeader: `mcp-header-secret-${tag}-41d2e8`,
    serverlessVault: `serverless-secret-${tag}-c0ffee`,
    createdKey: "",
  };

  const vault = await send("post", "/v1/vaults", { name: `vault-${tag}`, secrets: { TOKEN: secrets.vault } });
  const toolVault = await send("post", "/v1/vaults", {
    name: `tool-vault-${tag}`,
    secrets: { API_KEY: secrets.serverlessVault },
  });
  const environment = await send("post", `${base}/environments`, { name: `env-${tag}` });
  const store = await send("post", `${base}/memory-stores`, { name: `store-${tag}` });
  await send("put", `${base}/memory-stores/${store.id}/entries`, { key: "note", content: `remember ${tag}` });
  const kb = await send("post", `${base}/knowledge-bases`, { name: `kb-${tag}` });
  const doc = await send("post", `${base}/knowledge-bases/${kb.id}/documents`, {
    title: `doc ${tag}`,
    content: `knowledge of ${tag}`,
  });
  const dataset = await send("post", `${base}/datasets`, { name: `ds-${tag}`, cases: [{ input: `case ${tag}` }] });
  const budget = await send("post", "/v1/budgets", {
    scope: "workspace",
    meter: "tokens",
    limit: 1_000_000,
    action: "notify",
  });
  const tool = await send("post", `${base}/serverless-tools`, {
    name: `tool_${tag}`,
    description: "Echo",
    inputSchema: { type: "object" },
    url: options.toolUrl,
    vaultId: toolVault.id,
  });
  const skill = await send("post", "/v1/skills", {
    files: [
      { path: "SKILL.md", content: `---\nname: skill-${tag}\ndescription: A skill of ${tag}\n---\n# Do it\n` },
      { path: "notes.md", content: `notes of ${tag}` },
    ],
  });
  const agent = await send("post", `${base}/agents`, {
    name: `agent-${tag}`,
    model: options.model ?? "builtin/echo",
    tools: ["web_fetch"],
    toolPermissions: { docs__echo: "always_allow" },
    mcpServers: [{ name: "docs", url: options.mcpUrl, headers: { Authorization: `Bearer ${secrets.mcpHeader}` } }],
    serverlessTools: [{ toolId: tool.id, version: 1 }],
  });
  const session = await send("post", `${base}/sessions`, { agent: agent.id, vaultIds: [vault.id] });
  const automation = await send("post", `${base}/automations`, {
    name: `automation-${tag}`,
    agentId: agent.id,
    prompt: `report of ${tag}`,
    trigger: { type: "schedule", cron: "0 9 * * 1-5", timezone: "UTC" },
    environmentId: environment.id,
    vaultIds: [vault.id],
    resources: [{ memoryStoreId: store.id, memoryStoreName: store.name, mode: "read-only" }],
  });
  await send("post", `${base}/automations/${automation.id}/run`, {}, 202);
  const experiment = await send("post", `${base}/experiments`, {
    datasetId: dataset.id,
    name: `experiment-${tag}`,
    task: { type: "model", model: "builtin/echo", system: `Repeat for ${tag}` },
    scorers: [{ type: "not_empty" }, { type: "contains", value: tag }],
  });
  const webhook = await send("post", "/v1/webhooks", {
    url: "https://hooks.example.com/agent-platform",
    events: ["*"],
    description: `webhook-${tag}`,
  });
  const delivery = await send("post", `/v1/webhooks/${webhook.id}/test`, {}, 202);
  const key = await send("post", "/v1/api-keys", { name: `key-${tag}`, projectId: tenant.projectId });
  secrets.createdKey = key.key;

  return {
    tenant,
    secrets,
    ids: {
      projects: tenant.projectId,
      vaults: vault.id,
      environments: environment.id,
      "memory-stores": store.id,
      "knowledge-bases": kb.id,
      "documents/:documentId": doc.id,
      datasets: dataset.id,
      budgets: budget.id,
      "serverless-tools": tool.id,
      skills: skill.id,
      "files/:path": "notes.md",
      "versions/:version": "1",
      ":version": "1",
      ":path": "notes.md",
      agents: agent.id,
      "mcp-servers/:name": "docs",
      sessions: session.id,
      automations: automation.id,
      experiments: experiment.id,
      webhooks: webhook.id,
      "deliveries/:deliveryId": delivery.id,
      "api-keys": key.id,
    },
  };
}
