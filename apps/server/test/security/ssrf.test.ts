import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { type LogEntry, waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  agentConfig,
  api,
  type Loopback,
  runContext,
  seedSession,
  startLoopback,
  toolNamed,
} from "../tools/support.js";

/**
 * SSRF: calls made on an agent's behalf with the default address policy (EGRESS_ALLOW_CIDRS empty). Every target is a
 * loopback server of this test; each test asserts the refusal AND that the target saw no request.
 */
let t: TestApp;
let narrow: TestApp;
let fake: FakeOpenAI;
let target: Loopback;
let mcp: TestMcpServer;
let hop: Loopback;

beforeAll(async () => {
  target = await startLoopback((_req, res) => res.end("internal data"));
  mcp = await startMcpServer({ transport: "streamable" });
  fake = await startFakeOpenAI();
  // The model provider is on loopback too: operator-configured calls are not subject to the policy.
  t = await startTestApp({ role: "all", env: { EGRESS_ALLOW_CIDRS: "", OPENAI_COMPATIBLE_BASE_URL: fake.url } });
  // Only 127.0.0.2 is opened here: an "allowed host" that redirects to 127.0.0.1.
  narrow = await startTestApp({ env: { EGRESS_ALLOW_CIDRS: "127.0.0.2/32" } });
  hop = await startLoopbackOn("127.0.0.2", `http://127.0.0.1:${target.port}/redirected`);
});

afterAll(async () => {
  await t?.close();
  await narrow?.close();
  await fake?.close();
  await target?.close();
  await mcp?.close();
  await hop?.close();
});

/** A loopback server on another 127/8 address that answers every request with a redirect (or 200 without one). */
async function startLoopbackOn(host: string, location?: string): Promise<Loopback> {
  const { createServer } = await import("node:http");
  const requests: Loopback["requests"] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: "" });
    res.writeHead(location ? 302 : 200, location ? { Location: location } : {});
    res.end(location ? "" : "opened");
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function webFetch(app: TestApp, url: string) {
  const tenant = app.tenant;
  const session = await seedSession(app, tenant);
  const agent = agentConfig({ tools: ["web_fetch"] });
  const tools = await resolveSessionTools({ ctx: app.platform.ctx, session, agent });
  return toolNamed(tools, "web_fetch").execute!({ url }, runContext(app, session, agent));
}

describe("web_fetch", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["a host name resolving to loopback", "localhost"],
    ["IPv4-mapped IPv6", "[::ffff:127.0.0.1]"],
    ["decimal IPv4", "2130706433"],
    ["octal IPv4", "0177.0.0.1"],
    ["hexadecimal IPv4", "0x7f.0.0.1"],
    ["short IPv4", "127.1"],
  ])("refuses %s, and the target sees nothing", async (_what, host) => {
    const result = await webFetch(t, `http://${host}:${target.port}/secret`);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Refused: .*a loopback address; .*EGRESS_ALLOW_CIDRS=/);
    expect(result.content).toContain("URL not fetched");
    expect(target.requests).toEqual([]);
  });

  it("refuses a redirect from an allowed host to a loopback address", async () => {
    const result = await webFetch(narrow, `${hop.url}/start`);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Refused: 127\.0\.0\.1 is a loopback address/);
    expect(result.content).toContain(`(redirect 1 from ${hop.url}/start)`);
    expect(hop.requests.map((r) => r.url)).toEqual(["/start"]);
    expect(target.requests).toEqual([]);
  });

  it("still reaches the opened range", async () => {
    const opened = await startLoopbackOn("127.0.0.2");
    try {
      const result = await webFetch(narrow, `${opened.url}/ok`);
      expect(result).toMatchObject({ isError: false, content: expect.stringContaining("Status: 200") });
      expect(opened.requests).toHaveLength(1);
    } finally {
      await opened.close();
    }
  });
});

describe("serverless tools", () => {
  it("refuses a tool URL on loopback before sending the vault's secrets", async () => {
    const vault = await api(t, t.tenant, "post", "/v1/vaults", {
      name: "ssrf-creds",
      secrets: { TOKEN: "never-sent" },
    });
    const tool = await api(t, t.tenant, "post", `${t.tenant.base}/serverless-tools`, {
      name: "internal_api",
      description: "Calls an internal API",
      inputSchema: { type: "object" },
      url: `http://localhost:${target.port}/fn`,
      vaultId: vault.id,
    });
    const session = await seedSession(t, t.tenant);
    const agent = agentConfig({ serverlessTools: [{ toolId: tool.id, version: 1 }] });
    const tools = await resolveSessionTools({ ctx: t.platform.ctx, session, agent });
    const result = await toolNamed(tools, "internal_api").execute!({}, runContext(t, session, agent));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/);
    expect(result.content).toContain("EGRESS_ALLOW_CIDRS");
    expect(result.content).toContain("Serverless tool internal_api was not called.");
    expect(target.requests).toEqual([]);
  });
});

describe("MCP servers", () => {
  it("reports a refused server in the session log, and the server sees no request", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: "openai-compatible/fake-model",
      mcpServers: [{ name: "internal", url: mcp.url, headers: { Authorization: "Bearer mcp-secret" } }],
    });
    fake.enqueue({ text: "No tools today." });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("hello")] });
    const log: LogEntry[] = await waitForIdle(t, t.tenant, session.id);
    const report = log.find((e) => e.type === "session.mcp_server_unavailable");
    expect(report).toMatchObject({ serverName: "internal" });
    expect(report.message).toMatch(
      /^Refused: 127\.0\.0\.1 is a loopback address; .*EGRESS_ALLOW_CIDRS=127\.0\.0\.1\/32/,
    );
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "end_turn" });
    // The model was offered none of its tools, and the server received nothing (headers included).
    expect(fake.requests.at(-1)!.body.tools ?? []).toEqual([]);
    expect(mcp.receivedHeaders).toEqual([]);
  });
});
