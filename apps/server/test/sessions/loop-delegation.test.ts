import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents, readLog } from "./helpers.js";
import { expectGapFree, type LogEntry, types, waitForIdle, waitUntil } from "./loop-helpers.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);
const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");
const toolNames = (request: FakeRequest) =>
  ((request.body.tools ?? []) as { function: { name: string } }[]).map((x) => x.function.name);
type ChatMessage = { role: string; content: string };
const lastToolMessage = (request: FakeRequest) =>
  (request.body.messages as ChatMessage[]).filter((m) => m.role === "tool").at(-1)!;

async function children(parentId: string, agentId: string) {
  const res = await t.http.get(`${t.tenant.base}/sessions?agent=${agentId}&limit=100`).set(t.tenant.auth);
  expect(res.status).toBe(200);
  return (res.body.data as { id: string; parentSessionId: string | null }[]).filter(
    (s) => s.parentSessionId === parentId,
  );
}

async function coordinator(roster: Record<string, unknown>[], budget?: { maxDelegations: number }) {
  return createAgent(t, t.tenant, {
    name: "Coordinator",
    model: MODEL,
    multiagent: { type: "coordinator", roster, ...(budget ? { budget } : {}) },
  });
}

describe("foreground delegation", () => {
  it("runs the subagent in a child session and returns its last message as the tool result", async () => {
    const sub = await createAgent(t, t.tenant, { name: "Researcher", model: "builtin/echo" });
    const outputSchema = { type: "object", properties: { answer: { type: "string" } } };
    const coord = await coordinator([{ agentId: sub.id, role: "researcher", mode: "foreground", outputSchema }]);
    fake.enqueue(
      { toolCalls: [{ name: "delegate_to_researcher", arguments: { task: "Find the capital of France" } }] },
      { text: "Paris, per the researcher." },
    );
    const session = await newSession(t, t.tenant, { agent: coord.id, events: [message("capital of France?")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.tool_use",
      "agent.usage",
      "agent.tool_result",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expectGapFree(log);
    expect(log.at(-1).stopReason).toBe("end_turn");

    // The tool was offered with the output schema in its description.
    const offered = (chatCalls()[0]!.body.tools as { function: { name: string; description: string } }[]).find(
      (x) => x.function.name === "delegate_to_researcher",
    );
    expect(offered?.function.description).toContain(JSON.stringify(outputSchema));

    const [child] = await children(session.id, sub.id);
    expect(child).toBeDefined();
    const childLog = await readLog(t, t.tenant, child!.id);
    expect(types(childLog)).toEqual([
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(childLog[0].content[0].text).toContain("Find the capital of France");
    // builtin/echo answers with the task: that answer is the coordinator's tool result.
    const answer = childLog[2].content[0].text;
    expect(log[4]).toMatchObject({ toolUseId: log[2].id, isError: false, content: [{ type: "text", text: answer }] });
    expect(lastToolMessage(chatCalls()[1]!).content).toContain("Find the capital of France");
  });

  it("confines a readonly entry to read-only tools and uses the entry's model", async () => {
    const sub = await createAgent(t, t.tenant, {
      name: "Reader",
      model: "builtin/echo",
      tools: ["web_fetch", "artifact_write"],
    });
    const coord = await coordinator([
      { agentId: sub.id, role: "reader", mode: "foreground", readonly: true, model: MODEL },
    ]);
    fake.enqueue(
      { toolCalls: [{ name: "delegate_to_reader", arguments: { task: "read something" } }] },
      { text: "I read it." },
      { text: "Coordinator done." },
    );
    const session = await newSession(t, t.tenant, { agent: coord.id, events: [message("go")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(log.at(-1).stopReason).toBe("end_turn");
    // Second call is the child's (the override model): only the read-only built-in tool is offered.
    expect(chatCalls()).toHaveLength(3);
    expect(toolNames(chatCalls()[1]!)).toEqual(["web_fetch"]);
    expect(byType(log, "agent.tool_result")[0]).toMatchObject({ content: [{ type: "text", text: "I read it." }] });
  });

  it("refuses delegations beyond budget.maxDelegations with an error result telling the model to conclude", async () => {
    const sub = await createAgent(t, t.tenant, { name: "Helper", model: "builtin/echo" });
    const coord = await coordinator([{ agentId: sub.id, role: "helper", mode: "foreground" }], { maxDelegations: 1 });
    fake.enqueue(
      { toolCalls: [{ name: "delegate_to_helper", arguments: { task: "first job" } }] },
      { toolCalls: [{ name: "delegate_to_helper", arguments: { task: "second job" } }] },
      { text: "Concluding with what I have." },
    );
    const session = await newSession(t, t.tenant, { agent: coord.id, events: [message("do two jobs")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    const results = byType(log, "agent.tool_result");
    expect(results.map((r) => r.isError)).toEqual([false, true]);
    expect(results[1].content[0].text).toContain("maxDelegations 1");
    expect(results[1].content[0].text).toContain("conclude");
    expect(await children(session.id, sub.id)).toHaveLength(1);
    expect(log.at(-1).stopReason).toBe("end_turn");
  });
});

describe("interrupting a coordinator", () => {
  it("stops its foreground subagent too", async () => {
    const sub = await createAgent(t, t.tenant, { name: "Slow", model: "builtin/echo" });
    const coord = await coordinator([{ agentId: sub.id, role: "slow", mode: "foreground", model: MODEL }]);
    fake.enqueue(
      { toolCalls: [{ name: "delegate_to_slow", arguments: { task: "take your time" } }] },
      { text: "a b c d e f g h i j k l m n o p", chunkDelayMs: 2_000 },
    );
    const session = await newSession(t, t.tenant, { agent: coord.id, events: [message("go")] });
    await waitUntil("the subagent's model call", async () =>
      chatCalls()[1]?.outcome === "pending" ? true : undefined,
    );
    const res = await postEvents(t, t.tenant, session.id, [{ type: "user.interrupt" }]);
    expect(res.status).toBeLessThan(300);
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(log.at(-1).stopReason).toBe("interrupted");
    expect(byType(log, "agent.tool_result")[0]).toMatchObject({
      toolUseId: byType(log, "agent.tool_use")[0].id,
      isError: true,
    });

    const [child] = await children(session.id, sub.id);
    const childLog = await waitForIdle(t, t.tenant, child!.id);
    expect(types(childLog)).toEqual([
      "user.message",
      "session.status_running",
      "user.interrupt",
      "session.status_idle",
    ]);
    expect(childLog.at(-1).stopReason).toBe("interrupted");
  });
});

describe("background delegation", () => {
  it("returns the child session id at once; collect_delegation returns the subagent's answer", async () => {
    const sub = await createAgent(t, t.tenant, { name: "Worker", model: "builtin/echo" });
    const coord = await coordinator([{ agentId: sub.id, role: "worker", mode: "background" }]);
    let childId = "";
    fake.enqueue(
      { toolCalls: [{ name: "delegate_to_worker", arguments: { task: "summarise the report" } }] },
      (request) => {
        childId = JSON.parse(lastToolMessage(request).content).childSessionId;
        return { toolCalls: [{ name: "collect_delegation", arguments: { sessionId: childId } }] };
      },
      { text: "Summary collected." },
    );
    const session = await newSession(t, t.tenant, { agent: coord.id, events: [message("summarise")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(log.at(-1).stopReason).toBe("end_turn");
    expect(toolNames(chatCalls()[0]!)).toEqual(["delegate_to_worker", "collect_delegation"]);
    const results = byType(log, "agent.tool_result");
    expect(JSON.parse(results[0].content[0].text)).toEqual({ childSessionId: childId, status: "started" });
    expect(childId).toMatch(/^sess_/);
    expect(results[1]).toMatchObject({ isError: false, content: [{ type: "text", text: "summarise the report" }] });
    const [child] = await children(session.id, sub.id);
    expect(child?.id).toBe(childId);
    expect(byType(await readLog(t, t.tenant, childId), "session.status_idle")[0].stopReason).toBe("end_turn");
  });

  it("refuses to collect a session that is not a delegation of this one", async () => {
    const sub = await createAgent(t, t.tenant, { name: "Worker", model: "builtin/echo" });
    const stranger = await newSession(t, t.tenant, { agent: sub.id });
    const coord = await coordinator([{ agentId: sub.id, role: "worker", mode: "background" }]);
    fake.enqueue(
      { toolCalls: [{ name: "collect_delegation", arguments: { sessionId: stranger.id } }] },
      { text: "ok" },
    );
    const session = await newSession(t, t.tenant, { agent: coord.id, events: [message("collect")] });
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(byType(log, "agent.tool_result")[0]).toMatchObject({ isError: true });
    expect(byType(log, "agent.tool_result")[0].content[0].text).toContain("not a delegation of this session");
  });
});
