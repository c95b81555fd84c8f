import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { saveSessionLoopSettings } from "../../src/sessions/index.js";
import { type FakeOpenAI, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { expectGapFree, getSession, type LogEntry, types, waitForIdle, waitForLog, waitUntil } from "./loop-helpers.js";

const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
let mcp: TestMcpServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await mcp?.close();
});
beforeEach(() => {
  fake.reset();
  mcp.toolCalls.length = 0;
});

const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");
const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);
type ChatMessage = { role: string; content?: string | null };
/** `role:content` of the non-system messages a chat request carried. */
const roles = (request: FakeRequest) =>
  (request.body.messages as ChatMessage[])
    .filter((m) => m.role !== "system")
    .map((m) => `${m.role}:${m.content ?? ""}`);

async function start(agentExtra: Record<string, unknown>, text: string) {
  const agent = await createAgent(t, t.tenant, { model: MODEL, ...agentExtra });
  const session = await newSession(t, t.tenant, { agent: agent.id, events: [message(text)] });
  return { agent, session };
}

describe("interrupt", () => {
  it("aborts a slow model reply at once and ends the turn interrupted", async () => {
    fake.enqueue({ text: "one two three four five six seven eight nine ten", chunkDelayMs: 2_000 });
    const { session } = await start({}, "tell me a long story");
    await waitUntil("the model call to start streaming", async () =>
      chatCalls()[0]?.outcome === "pending" ? true : undefined,
    );
    await waitForLog(t, t.tenant, session.id, "running", (log) => types(log).includes("session.status_running"));
    const res = await postEvents(t, t.tenant, session.id, [{ type: "user.interrupt" }]);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);

    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual(["user.message", "session.status_running", "user.interrupt", "session.status_idle"]);
    expect(log.at(-1).stopReason).toBe("interrupted");
    await waitUntil("the provider request to be dropped", async () =>
      chatCalls()[0]?.outcome === "client-closed" ? true : undefined,
    );
    expect(await getSession(t, t.tenant, session.id)).toMatchObject({ status: "idle", stopReason: "interrupted" });

    // The next message starts a normal turn; the model sees both messages.
    await postEvents(t, t.tenant, session.id, [message("short version please")]);
    const after = await waitForIdle(t, t.tenant, session.id, 2);
    expect(after.at(-1).stopReason).toBe("end_turn");
    expect(byType(after, "agent.message")).toHaveLength(1);
    expect(roles(chatCalls()[1]!)).toEqual(["user:tell me a long story", "user:short version please"]);
    expectGapFree(after);
  });

  it("aborts a running MCP tool and closes its tool use with an error result", async () => {
    fake.enqueue({ toolCalls: [{ name: "slow__slow", arguments: { ms: 60_000 } }] });
    const { session } = await start(
      { mcpServers: [{ name: "slow", url: mcp.url }], toolPermissions: { slow__slow: "always_allow" } },
      "wait a minute",
    );
    await waitUntil("the MCP tool to start", async () => (mcp.toolCalls.length > 0 ? true : undefined));
    await postEvents(t, t.tenant, session.id, [{ type: "user.interrupt" }]);
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.mcp_tool_use",
      "agent.usage",
      "user.interrupt",
      "agent.mcp_tool_result",
      "session.status_idle",
    ]);
    expect(log[5]).toMatchObject({ toolUseId: log[2].id, isError: true });
    expect(log[6].stopReason).toBe("interrupted");
  });

  it("is a no-op on an idle session", async () => {
    const { session } = await start({}, "hi");
    await waitForIdle(t, t.tenant, session.id);
    await postEvents(t, t.tenant, session.id, [{ type: "user.interrupt" }, message("again")]);
    const log = await waitForIdle(t, t.tenant, session.id, 2);
    expect(types(log).slice(5)).toEqual([
      "user.interrupt",
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(log.at(-1).stopReason).toBe("end_turn");
  });
});

describe("the end of a turn", () => {
  it("releases the session's job in the commit that ends it; each message after it is a new job, answered once", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.respondWith((request) => ({
      text: `re: ${(request.body.messages as { content: string }[]).at(-1)!.content}`,
    }));
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("turn 0")] });
    const jobRows = async () =>
      (
        await t.platform.ctx.db.pool.query(`SELECT 1 FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`, [
          session.id,
        ])
      ).rowCount;
    // Watches, snapshot by snapshot, for a session whose log ends with its turn's end while its job row is still
    // there: the release is part of the commit that ends the turn, so there is no such moment (there used to be one,
    // until the pass had wound down).
    let watching = true;
    const seen = { ended: 0, endedWithJob: 0 };
    const watcher = (async () => {
      while (watching) {
        const { rows } = await t.platform.ctx.db.pool.query(
          `SELECT (SELECT e."type" FROM session_events e WHERE e."sessionId" = s."id" AND e."seq" = s."lastSeq") AS "last",
             EXISTS (SELECT 1 FROM jobs j WHERE j."kind" = 'session.turn' AND j."key" = s."id") AS "job"
           FROM sessions s WHERE s."id" = $1`,
          [session.id],
        );
        if (rows[0].last === "session.status_idle") {
          seen.ended++;
          if (rows[0].job) seen.endedWithJob++;
        }
      }
    })();
    await waitForIdle(t, t.tenant, session.id);
    for (let i = 1; i <= 10; i++) {
      await postEvents(t, t.tenant, session.id, [message(`turn ${i}`)]);
      await waitForIdle(t, t.tenant, session.id, i + 1);
    }
    watching = false;
    await watcher;
    expect(seen.ended).toBeGreaterThan(0);
    expect(seen.endedWithJob).toBe(0);
    expect(await jobRows()).toBe(0);
    const log = await waitForIdle(t, t.tenant, session.id, 11);
    expectGapFree(log);
    const replies = byType(log, "agent.message").map((e) => (e.content as { text: string }[])[0]!.text);
    expect(replies).toEqual(Array.from({ length: 11 }, (_, i) => `re: turn ${i}`));
  });
});

describe("messages sent during a turn", () => {
  it("are handled in order after the current model step, in the same turn", async () => {
    fake.enqueue({ text: "First answer.", delayMs: 1_500 }, { text: "Second answer." });
    const { session } = await start({}, "first question");
    await waitUntil("the first model call", async () => (chatCalls().length > 0 ? true : undefined));
    await postEvents(t, t.tenant, session.id, [message("second question")]);
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "user.message",
      "agent.message",
      "agent.usage",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(log.at(-1).stopReason).toBe("end_turn");
    // The first call saw only the first question; the second sees the answer, then the second question.
    expect(log[4].contextSeq).toBe(2);
    expect(roles(chatCalls()[0]!)).toEqual(["user:first question"]);
    expect(roles(chatCalls()[1]!)).toEqual(["user:first question", "assistant:First answer.", "user:second question"]);
  });
});

describe("model errors", () => {
  it("retries a 503 before the first token, then succeeds", async () => {
    fake.enqueue({ status: 503 }, { text: "Back again." });
    const { session } = await start({}, "hello");
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.status_idle",
    ]);
    expect(log[2].content[0].text).toBe("Back again.");
    expect(chatCalls()).toHaveLength(2);
  });

  it("ends the turn with session.error when the provider stays down", async () => {
    fake.enqueue({ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 });
    const { session } = await start({}, "hello");
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual(["user.message", "session.status_running", "session.error", "session.status_idle"]);
    expect(log[2].error).toEqual({ code: "model.provider_error", message: expect.any(String) });
    expect(log[3].stopReason).toBe("error");
    expect(await getSession(t, t.tenant, session.id)).toMatchObject({ status: "idle", stopReason: "error" });

    // The worker is fine: the next message gets an answer.
    await postEvents(t, t.tenant, session.id, [message("still there?")]);
    const after = await waitForIdle(t, t.tenant, session.id, 2);
    expect(after.at(-1).stopReason).toBe("end_turn");
  });
});

describe("budgets", () => {
  it("refuses a model call once a blocking budget is used up: session.error budget.exceeded", async () => {
    const { agent, session } = await start({}, "one");
    const budget = await t.http
      .post("/v1/budgets")
      .set(t.tenant.auth)
      .send({ scope: "agent", agentId: agent.id, meter: "model_calls", limit: 1, action: "block", period: "total" });
    expect(budget.status, JSON.stringify(budget.body)).toBe(201);
    await waitForIdle(t, t.tenant, session.id);

    await postEvents(t, t.tenant, session.id, [message("two")]);
    const log = await waitForIdle(t, t.tenant, session.id, 2);
    expect(types(log).slice(5)).toEqual([
      "user.message",
      "session.status_running",
      "session.error",
      "session.status_idle",
    ]);
    expect(log[7].error.code).toBe("budget.exceeded");
    expect(log[7].error.message).toContain("model_calls");
    expect(log[8].stopReason).toBe("error");
    expect(chatCalls()).toHaveLength(1);
  });
});

describe("without an operator", () => {
  it("ends at once with an explicit error instead of waiting for a confirmation", async () => {
    fake.enqueue({ toolCalls: [{ name: "notes__write_note", arguments: { text: "x" } }] });
    const agent = await createAgent(t, t.tenant, { model: MODEL, mcpServers: [{ name: "notes", url: mcp.url }] });
    const session = await newSession(t, t.tenant, { agent: agent.id });
    await saveSessionLoopSettings(t.platform.ctx.db.pool, session.id, { operator: false });
    await postEvents(t, t.tenant, session.id, [message("note x")]);
    const log = await waitForIdle(t, t.tenant, session.id);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.mcp_tool_use",
      "agent.usage",
      "agent.mcp_tool_result",
      "session.error",
      "session.status_idle",
    ]);
    expect(log[5].error.code).toBe("session.operator_required");
    expect(log[5].error.message).toContain('tool "notes__write_note" requires confirmation');
    expect(log[6].stopReason).toBe("error");
    expect(mcp.toolCalls).toEqual([]);
    expect((await getSession(t, t.tenant, session.id)).pendingActions).toEqual([]);
  });
});
