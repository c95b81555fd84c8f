import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { type ReferenceMcpServer, startReferenceMcpServer } from "../support/reference-mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession } from "./helpers.js";
import { type LogEntry, waitForIdle } from "./loop-helpers.js";

// Per-session MCP credentials: one agent, header values taken from the vaults each session was created with, checked
// on the wire by the logging proxy in front of the official reference server.
const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let everything: ReferenceMcpServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  everything = await startReferenceMcpServer();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await everything?.close();
});

async function vault(name: string, secrets: Record<string, string>): Promise<string> {
  const res = await t.http.post("/v1/vaults").set(t.tenant.auth).send({ name, secrets });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

/** Runs one turn that calls get-sum; returns its log and the requests the MCP server received meanwhile. */
async function runSession(agentId: string, vaultIds: string[]) {
  const seen = everything.requests.length;
  fake.enqueue({ toolCalls: [{ name: "everything__get-sum", arguments: { a: 1, b: 2 } }] }, { text: "3" });
  const session = await newSession(t, t.tenant, { agent: agentId, vaultIds, events: [message("add")] });
  const log: LogEntry[] = await waitForIdle(t, t.tenant, session.id);
  // The turn's MCP session is ended (DELETE, with the same headers) just after the session goes idle: wait for it, so
  // that it is counted with this session's requests and not the next one's.
  await vi.waitFor(() => expect(everything.deleteCount()).toBe(everything.initializeCount()), { timeout: 5000 });
  return { log, requests: everything.requests.slice(seen) };
}

describe("MCP headers from the session's vaults", () => {
  it("sends each session its own user's token, and refuses to connect when the secret is missing", async () => {
    const alice = await vault("alice", { CRM_TOKEN: "alice-token-123" });
    const bob = await vault("bob", { CRM_TOKEN: "bob-token-456", OTHER: "x" });
    const nobody = await vault("nobody", { OTHER: "y" });
    const agent = await createAgent(t, t.tenant, {
      model: MODEL,
      mcpServers: [
        {
          name: "everything",
          url: everything.url,
          headers: { Authorization: { vaultKey: "CRM_TOKEN", prefix: "Bearer " }, "X-Team": "core" },
        },
      ],
      toolPermissions: { "everything__get-sum": "always_allow" },
    });
    const read = await t.http.get(`${t.tenant.base}/agents/${agent.id}`).set(t.tenant.auth);
    expect(read.body.mcpServers[0].headerKeys).toEqual(["Authorization", "X-Team"]);

    const first = await runSession(agent.id, [alice]);
    expect(first.log.find((e) => e.type === "agent.mcp_tool_result")).toMatchObject({ isError: false });
    expect(first.requests.length).toBeGreaterThan(0);
    for (const r of first.requests) {
      expect(r.headers).toMatchObject({ authorization: "Bearer alice-token-123", "x-team": "core" });
    }

    // Bob's vault comes second: the first vault holding the key gives the value.
    const second = await runSession(agent.id, [nobody, bob]);
    expect(second.log.find((e) => e.type === "agent.mcp_tool_result")).toMatchObject({ isError: false });
    expect(second.requests.length).toBeGreaterThan(0);
    for (const r of second.requests) expect(r.headers.authorization).toBe("Bearer bob-token-456");

    const missing = await runSession(agent.id, [nobody]);
    expect(missing.requests).toEqual([]);
    const unavailable = missing.log.find((e) => e.type === "session.mcp_server_unavailable");
    expect(unavailable).toMatchObject({ serverName: "everything" });
    expect(unavailable.message).toContain("CRM_TOKEN");
    expect(unavailable.message).toContain("none of the session's vaults holds");
    // The server's tools were not offered: the model's call of one is answered as an unknown tool.
    expect(missing.log.find((e) => e.type === "agent.tool_result")).toMatchObject({ isError: true });

    for (const log of [first.log, second.log, missing.log]) {
      expect(JSON.stringify(log)).not.toMatch(/alice-token|bob-token/);
    }
    expect(JSON.stringify(read.body)).not.toMatch(/alice-token|bob-token|CRM_TOKEN/);
  });

  it("refuses a malformed vault reference on write", async () => {
    const res = await t.http
      .post(`${t.tenant.base}/agents`)
      .set(t.tenant.auth)
      .send({
        name: "bad",
        model: MODEL,
        mcpServers: [{ name: "x", url: everything.url, headers: { Authorization: { vaultKey: "has space" } } }],
      });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("request.invalid");
  });
});
