import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeResponses, type FakeResponsesRequest, startFakeResponses } from "../support/fake-openai-responses.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession } from "./helpers.js";
import { interruptStreamedReply } from "./interrupt-stream.js";
import { getSession, type LogEntry, waitForIdle } from "./loop-helpers.js";
import { openSse } from "./sse-client.js";

// A reasoning model with tools on OpenAI's Responses API: its reasoning items go back (encrypted, nothing stored at
// OpenAI) with the tool results; every call carries the session's prompt-cache key and reads the cached prefix.
let t: TestApp;
let fake: FakeResponses;
let mcp: TestMcpServer;

type Item = { type?: string; encrypted_content?: string };
const toolOutputSent = (request: FakeResponsesRequest) =>
  (request.body.input as Item[]).some((item) => item.type === "function_call_output");

const LONG = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
const asksAtLength = (request: FakeResponsesRequest) => JSON.stringify(request.body.input).includes("talk at length");

beforeAll(async () => {
  fake = await startFakeResponses({
    reply: (request) =>
      asksAtLength(request)
        ? { text: LONG, chunkDelayMs: 100 }
        : toolOutputSent(request)
          ? { reasoning: "The tool answered, I can reply.", text: "Echoed, as you asked.", chunkDelayMs: 5 }
          : {
              reasoning: "I need the echo tool.",
              toolCalls: [{ name: "docs__echo", input: { text: "hi" } }],
              chunkDelayMs: 5,
            },
  });
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({ role: "all", env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await mcp?.close();
});

describe("reasoning and prompt caching on OpenAI (Responses API)", () => {
  it("sends the encrypted reasoning items back with the tool results, keyed to the session's cache", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: { id: "openai/o4-mini", reasoning: { effort: "medium" } },
      system: `Follow these rules. ${Array.from({ length: 1_500 }, (_, i) => `rule${i % 40}`).join(" ")}`,
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__echo: "always_allow" },
    });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("Echo hi.")] });
    const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
    expect(log.filter((e: LogEntry) => e.type === "session.error")).toEqual([]);
    const requests = fake.requests;
    expect(requests.map((r) => r.status)).toEqual([200, 200]);
    for (const request of requests) {
      expect(request.body.reasoning).toMatchObject({ effort: "medium" });
      expect(request.body.store).toBe(false);
      expect(request.body.include).toContain("reasoning.encrypted_content");
      expect(request.body.prompt_cache_key).toBe(session.id);
    }
    // The follow-up carries the reasoning item (verified by the fake's signature) right before its function call.
    const input = requests[1]!.body.input as Item[];
    const reasoningAt = input.findIndex((item) => item.type === "reasoning");
    expect(reasoningAt).toBeGreaterThanOrEqual(0);
    expect(input[reasoningAt + 1]?.type).toBe("function_call");
    const thinking = log.filter((e: LogEntry) => e.type === "agent.thinking");
    expect(thinking.map((e: LogEntry) => e.text)).toEqual(["I need the echo tool.", "The tool answered, I can reply."]);
    expect(input[reasoningAt]!.encrypted_content).toBe(thinking[0].providerMetadata.openai.reasoningEncryptedContent);
    const usage = log.filter((e: LogEntry) => e.type === "agent.usage");
    expect(usage[0].cacheReadInputTokens).toBe(0);
    expect(usage[1].cacheReadInputTokens).toBeGreaterThanOrEqual(1_024);
    expect(usage.every((e: LogEntry) => e.reasoningTokens > 0)).toBe(true);
    const record = await getSession(t, t.tenant, session.id);
    expect(record.usage.cacheReadInputTokens).toBe(usage[1].cacheReadInputTokens);
    expect(record.usage.costUsd).toBeGreaterThan(0);
  }, 60_000);

  it("streams to a delta follower: reasoning, arguments and text deltas, the streamed reasoning items replayed", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: { id: "openai/o4-mini", reasoning: { effort: "medium" } },
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__echo: "always_allow" },
    });
    const created = await t.http.post(`${t.tenant.base}/sessions`).set(t.tenant.auth).send({ agent: agent.id });
    const id = created.body.id;
    const live = await openSse(`${t.url}${t.tenant.base}/sessions/${id}/events/stream?deltas=true`, t.tenant.auth);
    const before = fake.requests.length;
    try {
      await t.http
        .post(`${t.tenant.base}/sessions/${id}/events`)
        .set(t.tenant.auth)
        .send({ events: [message("Echo")] });
      const log = await waitForIdle(t, t.tenant, id, 1, 60_000);
      await live.waitForFrames(log.length);
      expect(log.filter((e: LogEntry) => e.type === "session.error")).toEqual([]);
      const requests = fake.requests.slice(before);
      expect(requests.map((r) => [r.status, r.body.stream])).toEqual([
        [200, true],
        [200, true],
      ]);
      // The reasoning item collected from the stream goes back with its encrypted content (verified by the fake).
      const input = requests[1]!.body.input as Item[];
      const reasoning = input.find((item) => item.type === "reasoning");
      const thinking = log.filter((e: LogEntry) => e.type === "agent.thinking");
      expect(reasoning?.encrypted_content).toBe(thinking[0].providerMetadata.openai.reasoningEncryptedContent);
      const deltas = live.unnumbered.filter((f) => f.event === "agent.delta").map((f) => f.data);
      const of = (kind: string) => deltas.filter((d) => d.kind === kind).map((d) => d.delta);
      expect(of("reasoning").join("")).toBe("I need the echo tool.The tool answered, I can reply.");
      expect(JSON.parse(of("tool_input").join(""))).toEqual({ text: "hi" });
      const reply = log.find((e: LogEntry) => e.type === "agent.message");
      expect(of("text").join("")).toBe(reply.content[0].text);
      expect(reply.content[0].text).toBe("Echoed, as you asked.");
      expect(log.filter((e: LogEntry) => e.type === "agent.usage").every((e: LogEntry) => e.reasoningTokens > 0)).toBe(
        true,
      );
    } finally {
      live.close();
    }
  }, 60_000);

  it("an interrupt keeps what the streamed reply had written (its usage estimated), and the next turn is sent it", async () => {
    const agent = await createAgent(t, t.tenant, { model: "openai/gpt-5-mini" });
    const { id, log: cutLog, text } = await interruptStreamedReply(t, agent.id, "talk at length");
    expect(text.length).toBeGreaterThan(0);
    expect(LONG.startsWith(text) && text.length < LONG.length).toBe(true);
    // The Responses API reports usage only when the response completes: all of it estimated.
    const usage = cutLog.find((e: LogEntry) => e.type === "agent.usage");
    expect(usage).toMatchObject({ estimated: true, outputTokens: Math.ceil(text.length / 4) });
    expect(usage.inputTokens).toBeGreaterThan(0);

    await t.http
      .post(`${t.tenant.base}/sessions/${id}/events`)
      .set(t.tenant.auth)
      .send({ events: [message("go on")] });
    const log = await waitForIdle(t, t.tenant, id, 2);
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "end_turn" });
    const next = fake.requests.at(-1)!;
    expect(next.status).toBe(200);
    const said = (next.body.input as { role?: string; content?: { text?: string }[] }[]).find(
      (item) => item.role === "assistant",
    );
    expect(said?.content?.map((part) => part.text).join("")).toBe(text);
  });
});
