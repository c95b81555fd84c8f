import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { type ReferenceMcpServer, startReferenceMcpServer } from "../support/reference-mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { type LogEntry, waitForIdle, waitForLog, waitUntil } from "./loop-helpers.js";

// The agent loop against the official MCP reference server (Streamable HTTP, stateful: it keeps a session until a
// DELETE ends it), reached through a proxy that logs every request.
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

const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);

function everythingAgent(app: TestApp, permissions: Record<string, "always_allow" | "always_ask">) {
  return createAgent(app, app.tenant, {
    model: MODEL,
    mcpServers: [{ name: "everything", url: everything.url }],
    toolPermissions: permissions,
  });
}

/** Every MCP session the platform opened on the reference server has been ended by a DELETE. */
function allSessionsEnded(): Promise<true> {
  return waitUntil("every MCP session ended", async () =>
    everything.deleteCount() === everything.initializeCount() ? true : undefined,
  );
}

describe("MCP sessions on the reference server", () => {
  it("opens one MCP session for a pass of several steps and ends it with DELETE", async () => {
    const opened = everything.initializeCount();
    const agent = await everythingAgent(t, { "everything__get-sum": "always_allow" });
    fake.enqueue(
      { toolCalls: [{ name: "everything__get-sum", arguments: { a: 1, b: 2 } }] },
      { toolCalls: [{ name: "everything__get-sum", arguments: { a: 3, b: 4 } }] },
      { text: "3 and 7" },
    );
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("add twice")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(byType(log, "agent.mcp_tool_result").map((e) => e.isError)).toEqual([false, false]);
    expect(log.at(-1).stopReason).toBe("end_turn");
    // One pass, three model calls, two tool calls: one MCP session, ended.
    expect(everything.initializeCount() - opened).toBe(1);
    await allSessionsEnded();
  });

  it("does not offer the model a tool that only runs as an MCP task", async () => {
    const agent = await everythingAgent(t, {});
    fake.enqueue({ text: "nothing to do" });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("which tools?")] });
    await waitForIdle(t, t.tenant, session.id);
    const offered = (fake.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((x) => x.function.name);
    expect(offered).toContain("everything__get-sum");
    expect(offered).not.toContain("everything__simulate-research-query");
    await allSessionsEnded();
  });

  it("ends the MCP session of a pass stopped by an interrupt", async () => {
    const agent = await everythingAgent(t, { "everything__trigger-long-running-operation": "always_allow" });
    fake.enqueue({
      toolCalls: [{ name: "everything__trigger-long-running-operation", arguments: { duration: 600, steps: 2 } }],
    });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("take your time")] });
    await waitUntil("the long tool call reached the server", async () =>
      everything.rpcCalls().includes("tools/call trigger-long-running-operation") ? true : undefined,
    );
    await postEvents(t, t.tenant, session.id, [{ type: "user.interrupt" }]);
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(log.at(-1).stopReason).toBe("interrupted");
    await allSessionsEnded();
  });

  it("ends the MCP session of a pass that fails", async () => {
    const opened = everything.initializeCount();
    const agent = await everythingAgent(t, { "everything__get-sum": "always_allow" });
    fake.enqueue(
      { toolCalls: [{ name: "everything__get-sum", arguments: { a: 1, b: 1 } }] },
      { status: 400, body: { error: { message: "bad request", type: "invalid_request_error" } } },
    );
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("then fail")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(byType(log, "session.error")).toHaveLength(1);
    expect(everything.initializeCount() - opened).toBe(1);
    await allSessionsEnded();
  });
});

describe("resources and prompts of the reference server", () => {
  it("lets the model list and read resources and use a prompt, under the tools' permission policies", async () => {
    const agent = await everythingAgent(t, {
      everything__list_resources: "always_allow",
      everything__use_prompt: "always_allow",
    });
    fake.enqueue(
      {
        toolCalls: [
          { name: "everything__list_resources", arguments: {} },
          { name: "everything__use_prompt", arguments: { name: "args-prompt", arguments: { city: "Lisbon" } } },
          { name: "everything__read_resource", arguments: { uri: "demo://resource/dynamic/text/1" } },
        ],
      },
      { text: "read it" },
    );
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("resources please")] });
    // read_resource has no policy: like every MCP tool it asks first.
    let log = await waitForIdle(t, t.tenant, session.id);
    expect(log.at(-1).stopReason).toBe("requires_action");
    const uses = byType(log, "agent.mcp_tool_use");
    expect(uses.map((u) => [u.name, u.requiresConfirmation ?? false])).toEqual([
      ["list_resources", false],
      ["use_prompt", false],
      ["read_resource", true],
    ]);
    const offered = (fake.requests.at(-1)!.body.tools as { function: { name: string; description: string } }[]).map(
      (x) => x.function,
    );
    expect(offered.find((f) => f.name === "everything__use_prompt")?.description).toContain(
      "args-prompt(city, state?)",
    );
    await postEvents(t, t.tenant, session.id, [
      { type: "user.tool_confirmation", toolUseId: uses[2].id, result: "allow" },
    ]);
    log = await waitForIdle(t, t.tenant, session.id, 2);
    expect(log.at(-1).stopReason).toBe("end_turn");
    const [listed, prompt, read] = byType(log, "agent.mcp_tool_result");
    expect(listed.isError).toBe(false);
    expect(listed.content[0].text).toContain("demo://resource/static/document/");
    expect(prompt).toMatchObject({ isError: false });
    expect(prompt.content.map((p: { text: string }) => p.text).join("\n")).toContain(
      "[user]\nWhat's weather in Lisbon?",
    );
    expect(read.isError).toBe(false);
    expect(read.content[0].text).toMatch(
      /^\[resource demo:\/\/resource\/dynamic\/text\/1\]\nResource 1: This is a plaintext resource/,
    );
    expect(everything.rpcCalls()).toEqual(
      expect.arrayContaining([
        "resources/list",
        "prompts/list",
        "prompts/get args-prompt",
        "resources/read demo://resource/dynamic/text/1",
      ]),
    );
    await allSessionsEnded();
  });
});

describe("MCP sessions when the worker stops", () => {
  it("ends the MCP session of a pass aborted by the shutdown before the worker stops", async () => {
    const worker = await startTestApp({
      role: "all",
      env: { OPENAI_COMPATIBLE_BASE_URL: fake.url, WORKER_DRAIN_MS: "0" },
    });
    try {
      const agent = await everythingAgent(worker, { "everything__trigger-long-running-operation": "always_allow" });
      fake.enqueue({
        toolCalls: [{ name: "everything__trigger-long-running-operation", arguments: { duration: 600, steps: 2 } }],
      });
      const calls = everything.rpcCalls().length;
      const session = await newSession(worker, worker.tenant, { agent: agent.id, events: [message("long job")] });
      await waitForLog(worker, worker.tenant, session.id, "the MCP tool use", (log) =>
        log.some((e) => e.type === "agent.mcp_tool_use"),
      );
      await waitUntil("the long tool call reached the server", async () =>
        everything.rpcCalls().slice(calls).includes("tools/call trigger-long-running-operation") ? true : undefined,
      );
    } finally {
      await worker.close();
    }
    // The stop waited for the aborted pass, which ended its MCP session on the way out.
    expect(everything.deleteCount()).toBe(everything.initializeCount());
  });
});
