import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, type FakeAnthropicRequest, startFakeAnthropic } from "../support/fake-anthropic.js";
import { startMcpServer, type TestMcpServer } from "../support/mcp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message } from "./helpers.js";
import { interruptStreamedReply } from "./interrupt-stream.js";
import { type LogEntry, waitForIdle } from "./loop-helpers.js";
import { openSse } from "./sse-client.js";

// A reasoning model with tools on Anthropic, streamed to a delta follower: thinking, tool input and text arrive as
// deltas, and the signed thinking collected from the stream goes back unchanged (the fake refuses it otherwise).
let t: TestApp;
let fake: FakeAnthropic;
let mcp: TestMcpServer;

type Block = { type?: string };
const hasToolResult = (request: FakeAnthropicRequest) =>
  request.body.messages.some(
    (m: { content: unknown }) =>
      Array.isArray(m.content) && (m.content as Block[]).some((b) => b.type === "tool_result"),
  );

const LONG = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
const asksAtLength = (request: FakeAnthropicRequest) =>
  JSON.stringify(request.body.messages.at(-1)).includes("talk at length");

beforeAll(async () => {
  fake = await startFakeAnthropic({
    reply: (request) =>
      asksAtLength(request)
        ? { text: LONG, chunkDelayMs: 100 }
        : hasToolResult(request)
          ? { thinking: "The tool answered.", text: "Echoed: hi, as you asked.", chunkDelayMs: 10 }
          : {
              thinking: "The user wants an echo: call the tool once.",
              toolCalls: [{ name: "docs__echo", input: { text: "hi" } }],
              chunkDelayMs: 10,
            },
  });
  mcp = await startMcpServer({ transport: "streamable" });
  t = await startTestApp({
    role: "all",
    env: { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: fake.url, EGRESS_ALLOW_CIDRS: "127.0.0.0/8" },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await mcp?.close();
});

describe("live deltas on Anthropic", { timeout: 60_000 }, () => {
  it("streams thinking, tool input and text to a delta follower, and replays the streamed thinking", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: { id: "anthropic/claude-sonnet-4-5", maxOutputTokens: 4_096, reasoning: { budgetTokens: 2_048 } },
      mcpServers: [{ name: "docs", url: mcp.url }],
      toolPermissions: { docs__echo: "always_allow" },
    });
    const created = await t.http.post(`${t.tenant.base}/sessions`).set(t.tenant.auth).send({ agent: agent.id });
    const id = created.body.id;
    const live = await openSse(`${t.url}${t.tenant.base}/sessions/${id}/events/stream?deltas=true`, t.tenant.auth);
    try {
      await t.http
        .post(`${t.tenant.base}/sessions/${id}/events`)
        .set(t.tenant.auth)
        .send({ events: [message("Echo")] });
      const log: LogEntry[] = await waitForIdle(t, t.tenant, id);
      await live.waitForFrames(log.length);

      expect(log.filter((e) => e.type === "session.error")).toEqual([]);
      expect(fake.requests.length).toBe(2);
      for (const request of fake.requests) {
        expect(request.body.stream).toBe(true);
        expect(request.status).toBe(200);
      }
      // The follow-up carries the thinking block exactly as the stream delivered it (text and signature).
      const assistant = fake.requests[1]!.body.messages.find((m: LogEntry) => m.role === "assistant");
      const thinking = log.filter((e) => e.type === "agent.thinking");
      expect(assistant.content[0]).toEqual({
        type: "thinking",
        thinking: "The user wants an echo: call the tool once.",
        signature: thinking[0].providerMetadata.anthropic.signature,
      });

      const deltas = live.unnumbered.filter((f) => f.event === "agent.delta").map((f) => f.data);
      const of = (kind: string) => deltas.filter((d) => d.kind === kind).map((d) => d.delta);
      expect(of("reasoning").join("")).toBe("The user wants an echo: call the tool once.The tool answered.");
      expect(JSON.parse(of("tool_input").join(""))).toEqual({ text: "hi" });
      expect(deltas.find((d) => d.kind === "tool_input")).toMatchObject({ toolName: "docs__echo" });
      const reply = log.find((e) => e.type === "agent.message");
      expect(of("text").join("")).toBe(reply.content[0].text);
      expect(reply.content[0].text).toBe("Echoed: hi, as you asked.");
    } finally {
      live.close();
    }
  });

  it("an interrupt keeps what the streamed reply had written, with the prompt's tokens Anthropic reported first", async () => {
    const agent = await createAgent(t, t.tenant, { model: "anthropic/claude-sonnet-4-5" });
    const { id, log, text } = await interruptStreamedReply(t, agent.id, "talk at length");
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(LONG.length);
    expect(LONG.startsWith(text)).toBe(true);
    // The prompt's tokens as the API reported them in `message_start`; the output, never reported, estimated.
    const reported = fake.requests.at(-1)!.usage;
    const usage = log.find((e) => e.type === "agent.usage");
    expect(usage).toMatchObject({
      estimated: true,
      inputTokens: reported.input_tokens + reported.cache_read_input_tokens + reported.cache_creation_input_tokens,
      cacheReadInputTokens: reported.cache_read_input_tokens,
      cacheWriteInputTokens: reported.cache_creation_input_tokens,
      outputTokens: Math.ceil(text.length / 4),
    });
    expect(usage.inputTokens).toBeGreaterThan(0);
    const record = await t.http.get(`${t.tenant.base}/sessions/${id}`).set(t.tenant.auth);
    expect(record.body.usage).toMatchObject({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });
  });
});
