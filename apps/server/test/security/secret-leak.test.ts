import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { message } from "../sessions/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, lastUserText, startFakeOpenAI } from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type Loopback, startLoopback } from "../tools/support.js";
import { contractRoutes, fillPath } from "./support/contract-routes.js";
import { seedWorld, type World } from "./support/world.js";

/**
 * Plants known secrets (vault values, MCP header values, API keys, SECRETS_KEY), exercises every area — a session
 * that uses them included — and scans every response body, log line, event payload, the OpenAPI document and every
 * database row for them: 0 hits. The places the secrets were meant to go (the MCP server, the serverless endpoint)
 * must have received them, so the scan is not vacuous.
 */
let t: TestApp;
let fake: FakeOpenAI;
let mcp: TestMcpServer;
let endpoint: Loopback;
let world: World;
const logLines: string[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  mcp = await startMcpServer({ transport: "streamable" });
  endpoint = await startLoopback((_req, res) => res.end('{"ok":true}'));
  t = await startTestApp({
    role: "all",
    env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, LOG_LEVEL: "trace" },
    logLines,
  });
  world = await seedWorld(t, t.tenant, {
    tag: "leak",
    mcpUrl: mcp.url,
    toolUrl: `${endpoint.url}/tool`,
    model: "openai-compatible/fake-model",
    record: (text) => bodies.push(text),
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await mcp?.close();
  await endpoint?.close();
});

function planted(): Record<string, string> {
  const key = t.platform.ctx.config.secretsKey!;
  return {
    ...world.secrets,
    adminKey: t.tenant.key,
    secretsKey: key,
    secretsKeyHex: Buffer.from(key, "base64").toString("hex"),
  };
}

function hits(texts: string[]): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(planted())) {
    for (const text of texts) if (text.includes(value)) found.push(`${name} in ${text.slice(0, 200)}`);
  }
  return found;
}

describe("secret leak scan", () => {
  it("finds no planted secret in responses, logs, events, the OpenAPI document or the database", async () => {
    // A session that uses every credential: the MCP header, the serverless tool's vault, the session's vault.
    // Scripted for this session's message only: the world's automation session talks to the same fake model.
    fake.respondWith((request) => {
      if (lastUserText(request.body) !== "go") return { text: lastUserText(request.body) };
      // biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
      if ((request.body.messages as any[]).some((m) => m.role === "tool")) return { text: "done" };
      return {
        toolCalls: [
          { name: "docs__echo", arguments: { text: "hello" } },
          { name: "tool_leak", arguments: { q: "x" } },
        ],
      };
    });
    const sessionBase = `${t.tenant.base}/sessions/${world.ids.sessions}`;
    const posted = await t.http
      .post(`${sessionBase}/events`)
      .set(t.tenant.auth)
      .send({ events: [message("go")] });
    expect(posted.status).toBe(202);
    bodies.push(posted.text);
    const log = await waitForIdle(t, t.tenant, world.ids.sessions!);
    expect(log.map((e: { type: string }) => e.type)).toContain("agent.mcp_tool_result");
    expect(mcp.receivedHeaders.some((h) => h.authorization === `Bearer ${world.secrets.mcpHeader}`)).toBe(true);
    expect(endpoint.requests.some((r) => r.headers["x-secret-api_key"] === world.secrets.serverlessVault)).toBe(true);

    // Every GET route of the contract on the world's resources (the SSE stream is the event log, read below).
    for (const route of contractRoutes()) {
      if (route.method !== "GET" || route.name.endsWith("streamEvents")) continue;
      const res = await t.http.get(fillPath(route.path, world.ids)).set(t.tenant.auth);
      expect(res.status, `${route.name}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      bodies.push(res.text);
    }
    const stream = await t.http
      .get(`${sessionBase}/events/stream`)
      .set({ ...t.tenant.auth, "Last-Event-ID": "0" })
      .buffer(true)
      .parse((res, done) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("session.status_idle")) (res as unknown as { destroy(): void }).destroy();
        });
        res.on("close", () => done(null, text));
        res.on("end", () => done(null, text));
      });
    bodies.push(String(stream.body));
    const openapi = await t.http.get("/v1/openapi.json");
    bodies.push(
      openapi.text,
      readFileSync(new URL("../../../../packages/contract/openapi.json", import.meta.url), "utf8"),
    );

    const events = await t.platform.ctx.db.pool.query<{ row: string }>(`SELECT e::text AS row FROM session_events e`);
    expect(events.rows.length).toBeGreaterThan(5);

    // Every row of every table, as text: secrets are sealed or hashed at rest.
    const tables = await t.platform.ctx.db.pool.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'`,
    );
    const rows: string[] = [];
    for (const { name } of tables.rows) {
      const result = await t.platform.ctx.db.pool.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
      rows.push(...result.rows.map((r) => r.row));
    }

    expect(logLines.length).toBeGreaterThan(20);
    expect(bodies.length).toBeGreaterThan(40);
    // The one place a key may appear: the response that created it.
    const creation = `"key":"${world.secrets.createdKey}"`;
    expect(bodies.filter((b) => b.includes(creation))).toHaveLength(1);
    expect(hits(bodies.filter((b) => !b.includes(creation))), "response bodies").toEqual([]);
    expect(hits(logLines), "log lines").toEqual([]);
    expect(hits(events.rows.map((r) => r.row)), "event payloads").toEqual([]);
    expect(hits(rows), "database rows").toEqual([]);
  });
});
