import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSessionTools } from "../../src/runtime/tools/resolve-session-tools.js";
import type { RuntimeTool, SessionRuntimeInfo } from "../../src/runtime/tools/types.js";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import {
  agentConfig,
  type Loopback,
  putWorkspaceEgress,
  runContext,
  seedSession,
  startLoopback,
  toolNamed,
} from "./support.js";

let t: TestApp;
let site: Loopback;

beforeAll(async () => {
  t = await startTestApp();
  site = await startLoopback((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    switch (url.pathname) {
      case "/page":
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(
          "<html><head><title>Docs &amp; more</title><script>evil()</script></head>" +
            '<body><h1>Hello</h1><p>See <a href="/next">the next page</a>.</p></body></html>',
        );
        return;
      case "/data":
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ answer: 42 }));
        return;
      case "/big":
        res.writeHead(200, { "Content-Type": "text/plain" });
        res.end("x".repeat(50_000));
        return;
      case "/binary":
        res.writeHead(200, { "Content-Type": "image/png" });
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]));
        return;
      case "/missing":
        res.writeHead(404, { "Content-Type": "text/plain" });
        res.end("no such page");
        return;
      case "/hop":
        // Same server under another host name: `localhost` instead of 127.0.0.1.
        res.writeHead(302, { Location: `http://localhost:${site.port}/data` });
        res.end();
        return;
      case "/relative":
        res.writeHead(301, { Location: "/data" });
        res.end();
        return;
      case "/slow":
        setTimeout(() => {
          res.writeHead(200, { "Content-Type": "text/plain" });
          res.end("late");
        }, 5_000).unref();
        return;
      default:
        res.writeHead(500);
        res.end();
    }
  });
});

afterAll(async () => {
  await site?.close();
  await t?.close();
});

async function webFetch(
  tenant: Tenant,
  agentOverrides: Parameters<typeof agentConfig>[0] = {},
): Promise<{ tool: RuntimeTool; session: SessionRuntimeInfo; agent: ReturnType<typeof agentConfig> }> {
  const agent = agentConfig({ tools: ["web_fetch"], ...agentOverrides });
  const session = await seedSession(t, tenant);
  const tools = await resolveSessionTools({ ctx: t.platform.ctx, session, agent });
  return { tool: toolNamed(tools, "web_fetch"), session, agent };
}

describe("web_fetch", () => {
  it("is offered only when the agent lists it", async () => {
    const session = await seedSession(t, t.tenant);
    const tools = await resolveSessionTools({ ctx: t.platform.ctx, session, agent: agentConfig() });
    expect(tools.map((x) => x.name)).not.toContain("web_fetch");
    const { tool } = await webFetch(t.tenant);
    expect(tool).toMatchObject({ origin: "builtin", readOnly: true });
    expect(tool.inputSchema).toMatchObject({ type: "object", required: ["url"] });
  });

  it("fetches an allowed page and renders HTML as text", async () => {
    const { tool, session, agent } = await webFetch(t.tenant);
    const result = await tool.execute!({ url: `${site.url}/page` }, runContext(t, session, agent));
    expect(result.isError).toBe(false);
    expect(result.content).toContain(`URL: ${site.url}/page`);
    expect(result.content).toContain("Status: 200 OK");
    expect(result.content).toContain("Content-Type: text/html; charset=utf-8");
    expect(result.content).toContain("# Docs & more");
    expect(result.content).toContain("Hello");
    expect(result.content).toContain(`See [the next page](${site.url}/next).`);
    expect(result.content).not.toContain("evil()");
    expect(result.content).not.toContain("<p>");
  });

  it("returns JSON as is and follows an allowed relative redirect", async () => {
    const { tool, session, agent } = await webFetch(t.tenant);
    const result = await tool.execute!({ url: `${site.url}/relative` }, runContext(t, session, agent));
    expect(result.isError).toBe(false);
    expect(result.content).toContain(`URL: ${site.url}/data`);
    expect(result.content).toContain(`Redirected from: ${site.url}/relative`);
    expect(result.content).toContain('{"answer":42}');
  });

  it("cuts the body at maxBytes and says so; binary content is not shown", async () => {
    const { tool, session, agent } = await webFetch(t.tenant);
    const big = await tool.execute!({ url: `${site.url}/big`, maxBytes: 1000 }, runContext(t, session, agent));
    expect(big.isError).toBe(false);
    expect(big.content).toContain("Truncated: only the first 1000 bytes of the body were read");
    expect(big.content.endsWith(`\n\n${"x".repeat(1000)}`)).toBe(true);
    const binary = await tool.execute!({ url: `${site.url}/binary` }, runContext(t, session, agent));
    expect(binary.content).toContain("(binary content, 8 bytes, not shown)");
  });

  it("reports an HTTP error status as an error result with the body", async () => {
    const { tool, session, agent } = await webFetch(t.tenant);
    const result = await tool.execute!({ url: `${site.url}/missing` }, runContext(t, session, agent));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Status: 404 Not Found");
    expect(result.content).toContain("no such page");
  });

  it("refuses a host denied by the workspace policy, naming the rule", async () => {
    const tenant = await t.newTenant();
    await putWorkspaceEgress(t, tenant, { deniedDomains: ["127.0.0.1"] });
    const { tool, session, agent } = await webFetch(tenant);
    const before = site.requests.length;
    const result = await tool.execute!({ url: `${site.url}/data` }, runContext(t, session, agent));
    expect(result).toEqual({
      isError: true,
      content: `Refused by the workspace egress policy: host 127.0.0.1:${site.port} matches the deny rule "127.0.0.1". URL not fetched: ${site.url}/data`,
    });
    expect(site.requests.length).toBe(before);
  });

  it("refuses a host outside the workspace allowlist, even if the agent allows it", async () => {
    const tenant = await t.newTenant();
    await putWorkspaceEgress(t, tenant, { allowedDomains: ["*.example.com"] });
    const { tool, session, agent } = await webFetch(tenant, { egressPolicy: { allowedDomains: ["127.0.0.1"] } });
    const before = site.requests.length;
    const result = await tool.execute!({ url: `${site.url}/data` }, runContext(t, session, agent));
    expect(result.isError).toBe(true);
    expect(result.content).toContain(
      `Refused by the workspace egress policy: host 127.0.0.1:${site.port} is not in its allowlist (allowedDomains: *.example.com)`,
    );
    expect(site.requests.length).toBe(before);
  });

  it("refuses a host the agent's policy denies or leaves out of its allowlist", async () => {
    const denied = await webFetch(t.tenant, { egressPolicy: { deniedDomains: [`127.0.0.1:${site.port}`] } });
    const a = await denied.tool.execute!({ url: `${site.url}/data` }, runContext(t, denied.session, denied.agent));
    expect(a.isError).toBe(true);
    expect(a.content).toContain(
      `Refused by the agent's egress policy: host 127.0.0.1:${site.port} matches the deny rule`,
    );

    const narrowed = await webFetch(t.tenant, { egressPolicy: { allowedDomains: ["docs.example.com"] } });
    const b = await narrowed.tool.execute!(
      { url: `${site.url}/data` },
      runContext(t, narrowed.session, narrowed.agent),
    );
    expect(b.isError).toBe(true);
    expect(b.content).toContain("Refused by the agent's egress policy");
    expect(b.content).toContain("is not in its allowlist (allowedDomains: docs.example.com)");
  });

  it("refuses a redirect into a denied host without requesting it", async () => {
    const tenant = await t.newTenant();
    await putWorkspaceEgress(t, tenant, { deniedDomains: ["localhost"] });
    const { tool, session, agent } = await webFetch(tenant);
    const before = site.requests.length;
    const result = await tool.execute!({ url: `${site.url}/hop` }, runContext(t, session, agent));
    expect(result.isError).toBe(true);
    expect(result.content).toContain(
      `Refused by the workspace egress policy: host localhost:${site.port} matches the deny rule "localhost" (redirect 1 from ${site.url}/hop)`,
    );
    // Only the first hop reached the server.
    expect(site.requests.slice(before).map((r) => r.url)).toEqual(["/hop"]);

    const open = await webFetch(t.tenant);
    const followed = await open.tool.execute!({ url: `${site.url}/hop` }, runContext(t, open.session, open.agent));
    expect(followed.isError).toBe(false);
    expect(followed.content).toContain(`URL: http://localhost:${site.port}/data`);
  });

  it("a policy change applies to the next call at once", async () => {
    const tenant = await t.newTenant();
    const { tool, session, agent } = await webFetch(tenant);
    expect((await tool.execute!({ url: `${site.url}/data` }, runContext(t, session, agent))).isError).toBe(false);
    await putWorkspaceEgress(t, tenant, { allowedDomains: [] });
    const refused = await tool.execute!({ url: `${site.url}/data` }, runContext(t, session, agent));
    expect(refused.content).toContain("an empty allowlist: no host is reachable");
  });

  it("answers bad input, other schemes and unreachable hosts with error results", async () => {
    const { tool, session, agent } = await webFetch(t.tenant);
    const run = runContext(t, session, agent);
    expect(await tool.execute!({}, run)).toEqual({
      isError: true,
      content: "Invalid input for web_fetch: url: Required",
    });
    expect((await tool.execute!({ url: "x", extra: 1 }, run)).content).toContain(
      "Unrecognized key(s) in object: 'extra'",
    );
    expect((await tool.execute!({ url: `${site.url}/data`, maxBytes: 0 }, run)).isError).toBe(true);
    expect(await tool.execute!({ url: "file:///etc/passwd" }, run)).toMatchObject({
      isError: true,
      content: expect.stringContaining("Only http and https URLs are allowed (got file:)"),
    });
    expect(await tool.execute!({ url: "not a url" }, run)).toMatchObject({
      isError: true,
      content: expect.stringContaining("Not a valid absolute URL"),
    });
    const closed = await startLoopback(() => {});
    await closed.close();
    const refused = await tool.execute!({ url: `${closed.url}/` }, run);
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain(`Request to ${closed.url}/ failed: `);
    expect(refused.content).toContain("ECONNREFUSED");
  });

  it("stops promptly when the turn is interrupted", async () => {
    const { tool, session, agent } = await webFetch(t.tenant);
    const controller = new AbortController();
    const started = Date.now();
    const pending = tool.execute!({ url: `${site.url}/slow` }, runContext(t, session, agent, controller.signal));
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toEqual({ isError: true, content: "web_fetch was interrupted" });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await tool.execute!({ url: `${site.url}/data` }, runContext(t, session, agent, controller.signal))).toEqual({
      isError: true,
      content: "web_fetch was not run: the turn was interrupted",
    });
  });
});
