import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, type FakeAnthropicRequest, startFakeAnthropic } from "../support/fake-anthropic.js";
import { type FakeOpenAI, type FakeReply, type FakeRequest, startFakeOpenAI } from "../support/fake-openai.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents } from "./helpers.js";
import { type LogEntry, waitForIdle } from "./loop-helpers.js";

// Forks of sessions whose history the model is not sent verbatim (docs/sessions.md, "Forking a session"): a compacted
// one (the fork's model sees the summary when the copy includes it, the whole history when it does not) and one with
// signed thinking (copied blocks go back unchanged: the Anthropic fake refuses an altered signature).
const WINDOW = 6_000;
let t: TestApp;
let openai: FakeOpenAI;
let anthropic: FakeAnthropic;
let mcp: TestMcpServer;

const words = (n: number) => Array.from({ length: n }, (_, i) => `lorem${i % 10}`).join(" ");
// biome-ignore lint/suspicious/noExplicitAny: chat messages as the fake server received them
const messagesOf = (request: FakeRequest) => request.body.messages as any[];
const isSummaryCall = (request: FakeRequest) =>
  String(messagesOf(request).at(-1)?.content ?? "").startsWith("Summarise this conversation");
const firstUser = (request: FakeRequest) => messagesOf(request).find((m) => m.role === "user");
const byType = (log: LogEntry[], type: string) => log.filter((e) => e.type === type);
const hasToolResult = (request: FakeAnthropicRequest) =>
  request.body.messages.some(
    (m: { content: unknown }) =>
      Array.isArray(m.content) && (m.content as { type?: string }[]).some((b) => b.type === "tool_result"),
  );

beforeAll(async () => {
  openai = await startFakeOpenAI({ contextWindow: WINDOW });
  openai.respondWith((request): FakeReply => {
    if (isSummaryCall(request)) return { text: "Summary: the user asked for echoes; every echo succeeded." };
    if (messagesOf(request).at(-1)?.role === "tool") return { text: "Echoed." };
    return { toolCalls: [{ name: "docs__echo", arguments: { text: words(300) } }] };
  });
  anthropic = await startFakeAnthropic({
    reply: (request) =>
      hasToolResult(request)
        ? { thinking: "The tool answered.", text: "Echoed: hi" }
        : {
            thinking: "The user wants an echo: call the tool once.",
            toolCalls: [{ name: "docs__echo", input: { text: "hi" } }],
          },
  });
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({
    role: "all",
    env: { OPENAI_COMPATIBLE_BASE_URL: openai.url, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: anthropic.url },
  });
});
afterAll(async () => {
  await t?.close();
  await openai?.close();
  await anthropic?.close();
  await mcp?.close();
});

const fork = async (sessionId: string, atSeq: number) => {
  const res = await t.http.post(`${t.tenant.base}/sessions/${sessionId}/fork`).set(t.tenant.auth).send({ atSeq });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};

/** The user message of each turn, by its text. */
const messageSeq = (log: LogEntry[], text: string) =>
  log.find((e) => e.type === "user.message" && e.content[0].text === text).seq as number;

describe("forks of sessions the model is not sent verbatim", { timeout: 120_000 }, () => {
  it("a compacted session: the fork's model sees the summary, as the source's did, or the whole history before it", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: { id: "openai-compatible/fake-model", contextWindow: WINDOW },
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__echo: "always_allow" },
    });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("turn 1")] });
    let log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
    let turn = 1;
    while (
      byType(log, "session.compaction").length === 0 ||
      log.at(-1).seq < byType(log, "session.compaction")[0].seq
    ) {
      turn++;
      await postEvents(t, t.tenant, session.id, [message(`turn ${turn}`)]);
      log = await waitForIdle(t, t.tenant, session.id, turn, 60_000);
    }
    // One more turn on the compacted conversation: the one the fork replays.
    turn++;
    const replayed = `turn ${turn}`;
    const before = openai.requests.length;
    await postEvents(t, t.tenant, session.id, [message(replayed)]);
    log = await waitForIdle(t, t.tenant, session.id, turn, 60_000);
    expect(byType(log, "session.compaction")).toHaveLength(1);
    const sourceCall = openai.requests.slice(before).find((r) => !isSummaryCall(r))!;
    expect(String(firstUser(sourceCall).content)).toContain("[Summary of the earlier conversation]");

    // Forked at that turn's message: the copy includes the compaction, the replayed call is the source's exactly.
    const afterSummary = openai.requests.length;
    const forked = await fork(session.id, messageSeq(log, replayed));
    const forkLog = await waitForIdle(t, t.tenant, forked, turn, 60_000);
    expect(forkLog.at(-1).stopReason).toBe("end_turn");
    const forkCall = openai.requests.slice(afterSummary).find((r) => !isSummaryCall(r))!;
    expect(messagesOf(forkCall)).toEqual(messagesOf(sourceCall));

    // Forked before the compaction: the copy has no summary, the model is sent the history as it was then.
    const compaction = byType(log, "session.compaction")[0];
    const early = byType(log, "user.message")
      .filter((e: LogEntry) => e.seq < compaction.seq)
      .at(-1);
    const earlyCalls = openai.requests.length;
    const forkedEarly = await fork(session.id, early.seq);
    await waitForIdle(t, t.tenant, forkedEarly, byType(log, "user.message").indexOf(early) + 1, 60_000);
    const earlyCall = openai.requests.slice(earlyCalls).find((r) => !isSummaryCall(r))!;
    expect(JSON.stringify(messagesOf(earlyCall))).not.toContain("[Summary of the earlier conversation]");
    expect(firstUser(earlyCall)).toEqual({ role: "user", content: "turn 1" });
  });

  it("a session with signed thinking: the fork sends the copied thinking blocks back unchanged", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: { id: "anthropic/claude-sonnet-4-5", maxOutputTokens: 4_096, reasoning: { budgetTokens: 2_048 } },
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__echo: "always_allow" },
    });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("Echo hi.")] });
    await waitForIdle(t, t.tenant, session.id, 1, 60_000);
    const before = anthropic.requests.length;
    await postEvents(t, t.tenant, session.id, [message("Again.")]);
    const log = await waitForIdle(t, t.tenant, session.id, 2, 60_000);
    const sourceCall = anthropic.requests[before]!;
    expect(sourceCall.status).toBe(200);
    const signed = JSON.stringify(sourceCall.body.messages).match(/"signature":"[^"]+"/g) ?? [];
    expect(signed.length).toBeGreaterThanOrEqual(2);

    const forkCalls = anthropic.requests.length;
    const forked = await fork(session.id, messageSeq(log, "Again."));
    const forkLog = await waitForIdle(t, t.tenant, forked, 2, 60_000);
    expect(byType(forkLog, "session.error")).toEqual([]);
    const forkCall = anthropic.requests[forkCalls]!;
    // The fake checks every signature: an altered or dropped block would be a 400.
    expect(forkCall.status).toBe(200);
    expect(forkCall.body.messages).toEqual(sourceCall.body.messages);
    expect(forkLog.at(-1).stopReason).toBe("end_turn");
  });
});
