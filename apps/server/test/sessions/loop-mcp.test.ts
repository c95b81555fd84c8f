import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { type LogEntry, waitForIdle } from "./loop-helpers.js";

const MODEL = "openai-compatible/fake-model";
const FIRST = "Bearer mcp-token-one";
const ROTATED = "Bearer mcp-token-two";
let t: TestApp;
let fake: FakeOpenAI;
let mcp: TestMcpServer;
let sse: TestMcpServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  mcp = await startMcpServer({ transport: "streamable" });
  sse = await startMcpServer({ transport: "sse" });
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await mcp?.close();
  await sse?.close();
});

const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);

describe("MCP tools through a real MCP server", () => {
  it("sends the agent's headers, and the rotated value at once after a rotation (no new version)", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: MODEL,
      mcpServers: [{ name: "docs", url: mcp.url, headers: { Authorization: FIRST, "X-Team": "core" } }],
      toolPermissions: { docs__echo: "always_allow" },
    });
    fake.enqueue({ toolCalls: [{ name: "docs__echo", arguments: { text: "ping" } }] }, { text: "pong" });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("call echo")] });
    let log = await waitForIdle(t, t.tenant, session.id);
    const result = byType(log, "agent.mcp_tool_result")[0];
    expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "ping" }] });
    expect(mcp.receivedHeaders.length).toBeGreaterThan(0);
    for (const headers of mcp.receivedHeaders) {
      expect(headers).toMatchObject({ authorization: FIRST, "x-team": "core" });
    }
    // Header values never reach the log.
    expect(JSON.stringify(log)).not.toContain("mcp-token-one");

    const rotated = await t.http
      .put(`${t.tenant.base}/agents/${agent.id}/mcp-servers/docs/headers`)
      .set(t.tenant.auth)
      .send({ headers: { Authorization: ROTATED } });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.version).toBe(agent.version);

    const seen = mcp.receivedHeaders.length;
    fake.enqueue({ toolCalls: [{ name: "docs__echo", arguments: { text: "again" } }] }, { text: "done" });
    await postEvents(t, t.tenant, session.id, [message("once more")]);
    log = await waitForIdle(t, t.tenant, session.id, 2);
    expect(byType(log, "agent.mcp_tool_result")[1]).toMatchObject({ isError: false });
    const after = mcp.receivedHeaders.slice(seen);
    expect(after.length).toBeGreaterThan(0);
    for (const headers of after) expect(headers).toMatchObject({ authorization: ROTATED, "x-team": "core" });
    expect(JSON.stringify(log)).not.toContain("mcp-token-two");
    expect((await t.http.get(`${t.tenant.base}/agents/${agent.id}`).set(t.tenant.auth)).body.version).toBe(
      agent.version,
    );
  });

  it("offers the tools of a server that only speaks the older SSE transport", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: MODEL,
      mcpServers: [{ name: "legacy", url: sse.url }],
      toolPermissions: { legacy__add: "always_allow" },
    });
    fake.enqueue({ toolCalls: [{ name: "legacy__add", arguments: { a: 20, b: 22 } }] }, { text: "42" });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("add")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(byType(log, "agent.mcp_tool_use")[0]).toMatchObject({ serverName: "legacy", name: "add" });
    expect(byType(log, "agent.mcp_tool_result")[0]).toMatchObject({
      isError: false,
      content: [{ type: "text", text: "42" }],
    });
    // The model was offered the namespaced tools of that server.
    const offered = (fake.requests.at(-2)!.body.tools as { function: { name: string } }[]).map((x) => x.function.name);
    expect(offered).toEqual(expect.arrayContaining(["legacy__add", "legacy__echo", "legacy__write_note"]));
  });

  it("turns a tool failure of the server into an error result the model sees", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: MODEL,
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__fail: "always_allow" },
    });
    fake.enqueue({ toolCalls: [{ name: "docs__fail", arguments: {} }] }, { text: "It failed." });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("fail please")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(byType(log, "agent.mcp_tool_result")[0]).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "the fail tool failed on purpose" }],
    });
    expect(log.at(-1).stopReason).toBe("end_turn");
  });
});
