import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import { secretHeaders } from "../../src/runtime/tools/serverless/call-serverless-tool.js";
import type { RuntimeTool, ToolRunContext } from "../../src/runtime/tools/types.js";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  agentConfig,
  api,
  type Loopback,
  putWorkspaceEgress,
  runContext,
  seedSession,
  startLoopback,
  toolNamed,
} from "./support.js";

let t: TestApp;
let fn: Loopback;

const inputSchema = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
};

beforeAll(async () => {
  t = await startTestApp();
  fn = await startLoopback((req, res, body) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/weather") {
      const { city } = JSON.parse(body) as { city: string };
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ city, forecast: "sunny" }));
    } else if (url.pathname === "/broken") {
      res.writeHead(502, { "Content-Type": "text/plain" });
      res.end("upstream exploded");
    } else if (url.pathname === "/moved") {
      res.writeHead(307, { Location: "http://elsewhere.test/" });
      res.end();
    } else if (url.pathname === "/slow") {
      setTimeout(() => res.end("late"), 5_000).unref();
    } else {
      res.writeHead(204);
      res.end();
    }
  });
});

afterAll(async () => {
  await fn?.close();
  await t?.close();
});

async function createTool(
  tenant: Tenant,
  body: { name: string; url: string; vaultId?: string; description?: string },
): Promise<{ id: string; currentVersion: number }> {
  return api(t, tenant, "post", `${tenant.base}/serverless-tools`, {
    description: `Calls ${body.name}`,
    inputSchema,
    ...body,
  });
}

async function toolsOf(
  tenant: Tenant,
  agent: ReturnType<typeof agentConfig>,
): Promise<{ tools: RuntimeTool[]; run: (signal?: AbortSignal) => ToolRunContext }> {
  const session = await seedSession(t, tenant);
  const tools = await resolveSessionTools({ ctx: t.platform.ctx, session, agent });
  return { tools, run: (signal) => runContext(t, session, agent, signal) };
}

describe("serverless tools", () => {
  it("exposes each pinned version under the tool's name with its description and input schema", async () => {
    const weather = await createTool(t.tenant, { name: "get_weather", url: `${fn.url}/weather` });
    const published = await t.http
      .post(`${t.tenant.base}/serverless-tools/${weather.id}`)
      .set(t.tenant.auth)
      .send({ version: 1, description: "Weather, version 2", url: `${fn.url}/v2` });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const ping = await createTool(t.tenant, { name: "ping", url: `${fn.url}/ping` });

    const agent = agentConfig({
      tools: ["web_fetch"],
      serverlessTools: [
        { toolId: ping.id, version: 1 },
        { toolId: weather.id, version: 1 },
      ],
    });
    const { tools } = await toolsOf(t.tenant, agent);
    expect(tools.map((x) => [x.name, x.origin, x.readOnly])).toEqual([
      ["web_fetch", "builtin", true],
      ["ping", "serverless", false],
      ["get_weather", "serverless", false],
    ]);
    expect(toolNamed(tools, "get_weather")).toMatchObject({ description: "Calls get_weather", inputSchema });

    const v2 = await toolsOf(t.tenant, agentConfig({ serverlessTools: [{ toolId: weather.id, version: 2 }] }));
    expect(v2.tools.map((x) => x.description)).toEqual(["Weather, version 2"]);
  });

  it("POSTs the input as JSON with the vault's secrets as X-Secret-<KEY> headers", async () => {
    const vault = await api(t, t.tenant, "post", "/v1/vaults", {
      name: "weather-creds",
      secrets: { API_KEY: "k-123", "region.id": "eu-west" },
    });
    const tool = await createTool(t.tenant, { name: "weather_secure", url: `${fn.url}/weather`, vaultId: vault.id });
    const { tools, run } = await toolsOf(t.tenant, agentConfig({ serverlessTools: [{ toolId: tool.id, version: 1 }] }));
    const before = fn.requests.length;
    const context = run();
    const result = await toolNamed(tools, "weather_secure").execute!({ city: "Lisbon" }, context);
    expect(result).toEqual({ isError: false, content: '{"city":"Lisbon","forecast":"sunny"}' });

    const received = fn.requests.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: "POST", url: "/weather", body: '{"city":"Lisbon"}' });
    expect(received[0]!.headers).toMatchObject({
      "content-type": "application/json",
      "x-secret-api_key": "k-123",
      "x-secret-region.id": "eu-west",
      "x-agent-platform-session-id": context.session.id,
      "x-agent-platform-tool-use-id": context.toolUseId,
      "x-agent-platform-tool": "weather_secure@1",
    });
  });

  it("sends no secret headers without a vault", async () => {
    const tool = await createTool(t.tenant, { name: "weather_plain", url: `${fn.url}/weather` });
    const { tools, run } = await toolsOf(t.tenant, agentConfig({ serverlessTools: [{ toolId: tool.id, version: 1 }] }));
    const before = fn.requests.length;
    await toolNamed(tools, "weather_plain").execute!({ city: "Porto" }, run());
    const headers = Object.keys(fn.requests[before]!.headers);
    expect(headers.filter((h) => h.startsWith("x-secret-"))).toEqual([]);
  });

  it("turns a non-2xx answer, a redirect and an empty answer into readable results", async () => {
    const broken = await createTool(t.tenant, { name: "broken", url: `${fn.url}/broken` });
    const moved = await createTool(t.tenant, { name: "moved", url: `${fn.url}/moved` });
    const empty = await createTool(t.tenant, { name: "empty", url: `${fn.url}/empty` });
    const { tools, run } = await toolsOf(
      t.tenant,
      agentConfig({
        serverlessTools: [
          { toolId: broken.id, version: 1 },
          { toolId: moved.id, version: 1 },
          { toolId: empty.id, version: 1 },
        ],
      }),
    );
    expect(await toolNamed(tools, "broken").execute!({ city: "x" }, run())).toEqual({
      isError: true,
      content: "Serverless tool broken failed with HTTP 502:\nupstream exploded",
    });
    expect(await toolNamed(tools, "moved").execute!({ city: "x" }, run())).toEqual({
      isError: true,
      content: "Serverless tool moved answered HTTP 307 (redirects are not followed; Location: http://elsewhere.test/)",
    });
    expect(await toolNamed(tools, "empty").execute!({ city: "x" }, run())).toEqual({
      isError: false,
      content: "(empty response, HTTP 204)",
    });
    expect(await toolNamed(tools, "empty").execute!([1, 2], run())).toEqual({
      isError: true,
      content: "Invalid input for empty: expected a JSON object",
    });
  });

  it("refuses a URL outside the egress policy without calling it", async () => {
    const tenant = await t.newTenant();
    await putWorkspaceEgress(t, tenant, { allowedDomains: ["api.example.com"] });
    const tool = await createTool(tenant, { name: "fenced", url: `${fn.url}/weather` });
    const { tools, run } = await toolsOf(tenant, agentConfig({ serverlessTools: [{ toolId: tool.id, version: 1 }] }));
    const before = fn.requests.length;
    const result = await toolNamed(tools, "fenced").execute!({ city: "x" }, run());
    expect(result).toEqual({
      isError: true,
      content: `Refused by the workspace egress policy: host 127.0.0.1:${fn.port} is not in its allowlist (allowedDomains: api.example.com). Serverless tool fenced was not called.`,
    });
    expect(fn.requests.length).toBe(before);

    const agentDenied = await toolsOf(
      t.tenant,
      agentConfig({
        egressPolicy: { deniedDomains: ["127.0.0.1"] },
        serverlessTools: [
          { toolId: (await createTool(t.tenant, { name: "denied", url: `${fn.url}/weather` })).id, version: 1 },
        ],
      }),
    );
    const denied = await toolNamed(agentDenied.tools, "denied").execute!({ city: "x" }, agentDenied.run());
    expect(denied.content).toContain("Refused by the agent's egress policy: host 127.0.0.1:");
  });

  it("stops when the turn is interrupted, and fails cleanly when its vault is gone", async () => {
    const slow = await createTool(t.tenant, { name: "slow", url: `${fn.url}/slow` });
    const vault = await api(t, t.tenant, "post", "/v1/vaults", { name: "doomed", secrets: { K: "v" } });
    const vaulted = await createTool(t.tenant, { name: "vaulted", url: `${fn.url}/weather`, vaultId: vault.id });
    const { tools, run } = await toolsOf(
      t.tenant,
      agentConfig({
        serverlessTools: [
          { toolId: slow.id, version: 1 },
          { toolId: vaulted.id, version: 1 },
        ],
      }),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await toolNamed(tools, "slow").execute!({ city: "x" }, run(controller.signal))).toEqual({
      isError: true,
      content: "Serverless tool slow was interrupted",
    });

    expect((await t.http.delete(`/v1/vaults/${vault.id}`).set(t.tenant.auth)).status).toBeLessThan(300);
    expect(await toolNamed(tools, "vaulted").execute!({ city: "x" }, run())).toEqual({
      isError: true,
      content: `Vault ${vault.id} was not found`,
    });
  });

  it("leaves out pins that no longer resolve and tools of another project", async () => {
    const other = await t.newTenant();
    const foreign = await createTool(other, { name: "foreign", url: `${fn.url}/weather` });
    const own = await createTool(t.tenant, { name: "own", url: `${fn.url}/weather` });
    const { tools } = await toolsOf(
      t.tenant,
      agentConfig({
        serverlessTools: [
          { toolId: foreign.id, version: 1 },
          { toolId: own.id, version: 7 },
          { toolId: own.id, version: 1 },
        ],
      }),
    );
    expect(tools.map((x) => x.name)).toEqual(["own"]);
  });
});

describe("secretHeaders", () => {
  it("maps each secret KEY to X-Secret-KEY and refuses keys that collide case-insensitively", () => {
    expect(secretHeaders({ A: "1", b_c: "2" })).toEqual({
      ok: true,
      headers: { "X-Secret-A": "1", "X-Secret-b_c": "2" },
    });
    expect(secretHeaders({ token: "1", TOKEN: "2" })).toEqual({
      ok: false,
      message: 'Vault secrets "token" and "TOKEN" map to the same header (names are case-insensitive)',
    });
    expect(secretHeaders({ bad: "a\r\nInjected: 1" })).toMatchObject({ ok: false });
  });
});
