import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolResultsShare } from "../../src/runtime/loop/context-view.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type FakeOpenAI, type FakeOpenAIOptions, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type Loopback, startLoopback } from "../tools/support.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { expectGapFree, type LogEntry, waitForIdle } from "./loop-helpers.js";

// Tool results on models with a small window (docs/sessions.md, "Long sessions"): the model is shown at most about a
// quarter of the window of the tool results of a response, once the window is known — declared (catalogue, agent) or
// learned from the provider's refusal, and then remembered for the model across turns and processes.
const WINDOW = 6_000;
const TOOL_RESULT_MAX_CHARS = 20_000;
const QUARTER = toolResultsShare(WINDOW);

let database: TestDatabase;
let t: TestApp;
let fake: FakeOpenAI;
let site: Loopback;
const fakeOptions: FakeOpenAIOptions = { overflowStyle: "openai", contextWindows: {} };
const env = () => ({
  OPENAI_COMPATIBLE_BASE_URL: fake.url,
  TOOL_RESULT_MAX_CHARS: String(TOOL_RESULT_MAX_CHARS),
  MODEL_CATALOGUE: JSON.stringify({ "openai-compatible/catalogued": { contextWindow: WINDOW } }),
});

/** ~100 KB of JSON, as an API answers (JSON tokenises at ~2.7 characters a token, below the platform's estimate). */
const PAGE = JSON.stringify(
  Array.from({ length: 1_600 }, (_, i) => ({ id: 10_000 + i, name: `item ${i}`, price: i * 1.25, tags: ["a", "b"] })),
);

beforeAll(async () => {
  fake = await startFakeOpenAI(fakeOptions);
  site = await startLoopback((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(PAGE);
  });
  database = await createTestDatabase();
  t = await startTestApp({ role: "all", database: { url: database.url, drop: async () => {} }, env: env() });
  fake.respondWith(fetchThenAnswer);
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
  await fake?.close();
  await site?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
const messagesOf = (request: FakeRequest) => request.body.messages as any[];
const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);
const callsOf = (model: string) =>
  fake.requests.filter((r) => r.path === "/v1/chat/completions" && r.body.model === model);
const statuses = (requests: FakeRequest[]) => requests.map((r) => r.status);

/** A user message makes the model fetch the page (`calls` times at once); the tool results make it answer. */
function fetchThenAnswer(request: FakeRequest) {
  const last = messagesOf(request).at(-1);
  if (last?.role === "tool") return { text: "Read it." };
  const calls = String(last?.content ?? "").includes("twice") ? 2 : 1;
  return { toolCalls: Array.from({ length: calls }, () => ({ name: "web_fetch", arguments: { url: site.url } })) };
}

/** The tool messages of a request: their contents, as the model was shown them. */
const toolContents = (request: FakeRequest): string[] =>
  messagesOf(request)
    .filter((m) => m.role === "tool")
    .map((m) => String(m.content));

async function fetchingAgent(app: TestApp, model: unknown) {
  return createAgent(app, app.tenant, { model, tools: ["web_fetch"] });
}

async function turn(app: TestApp, sessionId: string, n: number, text: string): Promise<LogEntry[]> {
  if (n > 1) await postEvents(app, app.tenant, sessionId, [message(text)]);
  return waitForIdle(app, app.tenant, sessionId, n, 60_000);
}

function expectTurnsEnded(log: LogEntry[], turns: number) {
  expect(byType(log, "session.error")).toEqual([]);
  expect(byType(log, "session.status_idle").map((e) => e.stopReason)).toEqual(Array(turns).fill("end_turn"));
  // The log keeps every result whole.
  for (const result of byType(log, "agent.tool_result")) expect(result.content[0].text.length).toBeGreaterThan(90_000);
  expectGapFree(log);
}

describe("tool results on a small window", { timeout: 120_000 }, () => {
  it("learned from the provider's refusal: the turn goes on with the result cut to a quarter, the next turn is not refused", async () => {
    fakeOptions.contextWindows = { learned: WINDOW };
    const agent = await fetchingAgent(t, "openai-compatible/learned");
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("fetch it")] });
    let log = await turn(t, session.id, 1, "");
    expectTurnsEnded(log, 1);
    const first = callsOf("learned");
    // Shown TOOL_RESULT_MAX_CHARS while the window was unknown: refused, naming the window.
    expect(toolContents(first[1]!)[0]).toMatch(new RegExp(`^.{${TOOL_RESULT_MAX_CHARS}}\\n\\n\\[Cut: `, "s"));
    expect(statuses(first)).toEqual([200, 400, 200]);
    const answered = first.at(-1)!;
    const shown = toolContents(answered)[0]!;
    expect(shown.length).toBeLessThan(QUARTER + 400);
    expect(shown).toMatch(/\[Cut: the model is shown the first \d+ of \d+ characters/);

    // The next turn: cut to a quarter of the window from the start, nothing refused.
    log = await turn(t, session.id, 2, "fetch it again");
    expectTurnsEnded(log, 2);
    const second = callsOf("learned").slice(first.length);
    expect(statuses(second)).toEqual([200, 200]);
    expect(toolContents(second[1]!).at(-1)!.length).toBeLessThan(QUARTER + 400);
  });

  it("declared in the catalogue or on the agent: every result is cut to a quarter at once, nothing is refused", async () => {
    fakeOptions.contextWindows = { catalogued: WINDOW, declared: WINDOW };
    for (const [model, id] of [
      ["openai-compatible/catalogued", "catalogued"],
      [{ id: "openai-compatible/declared", contextWindow: WINDOW }, "declared"],
    ] as const) {
      const agent = await fetchingAgent(t, model);
      const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("fetch it")] });
      const log = await turn(t, session.id, 1, "");
      expectTurnsEnded(log, 1);
      const calls = callsOf(id);
      expect(statuses(calls)).toEqual([200, 200]);
      expect(toolContents(calls[1]!)[0]!.length).toBeLessThan(QUARTER + 400);
    }
  });

  it("the results of one response share the quarter", async () => {
    fakeOptions.contextWindows = { catalogued: WINDOW };
    const agent = await fetchingAgent(t, "openai-compatible/catalogued");
    const before = callsOf("catalogued").length;
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("fetch it twice")] });
    const log = await turn(t, session.id, 1, "");
    expectTurnsEnded(log, 1);
    expect(byType(log, "agent.tool_result")).toHaveLength(2);
    const shown = toolContents(callsOf("catalogued").slice(before)[1]!);
    expect(shown).toHaveLength(2);
    expect(shown.reduce((sum, text) => sum + text.length, 0)).toBeLessThan(QUARTER + 800);
  });

  it("a refusal that names no window (Ollama): the pass plans below the refused size and the turn goes on", async () => {
    fakeOptions.contextWindows = { unnamed: WINDOW };
    fakeOptions.overflowStyle = "ollama";
    try {
      const agent = await fetchingAgent(t, "openai-compatible/unnamed");
      const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("fetch it")] });
      const log = await turn(t, session.id, 1, "");
      expectTurnsEnded(log, 1);
      const calls = callsOf("unnamed");
      expect(statuses(calls).filter((s) => s === 400).length).toBeGreaterThan(0);
      expect(calls.at(-1)!.status).toBe(200);
    } finally {
      fakeOptions.overflowStyle = "openai";
    }
  });

  it("a window learned by one process is known to a process started later", async () => {
    fakeOptions.contextWindows = { learned: WINDOW };
    await t.close();
    t = await startTestApp({ role: "all", database: { url: database.url, drop: async () => {} }, env: env() });
    const before = callsOf("learned").length;
    const agent = await fetchingAgent(t, "openai-compatible/learned");
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("fetch it")] });
    const log = await turn(t, session.id, 1, "");
    expectTurnsEnded(log, 1);
    const calls = callsOf("learned").slice(before);
    expect(statuses(calls)).toEqual([200, 200]);
    expect(toolContents(calls[1]!)[0]!.length).toBeLessThan(QUARTER + 400);
  });
});
