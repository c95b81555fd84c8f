import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { callModel } from "../../src/models/call-model.js";
import type { ConversationMessage } from "../../src/models/messages.js";
import { ModelCallAborted, ModelCallError } from "../../src/models/model-errors.js";
import type { ModelSpec } from "../../src/models/model-spec.js";
import { type ProviderSettings, readProviderSettings } from "../../src/models/providers.js";
import { type FakeOpenAI, promptTokens, startFakeOpenAI } from "../support/fake-openai.js";
import { countFakeTokens } from "../support/fake-tokenizer.js";

const spec: ModelSpec = { provider: "openai-compatible", modelId: "fake-model" };
const fastRetry = { baseDelayMs: 1, maxDelayMs: 5, jitter: 0 };
const hello: ConversationMessage[] = [{ role: "user", text: "hello" }];

let fake: FakeOpenAI;
let settings: ProviderSettings;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  settings = readProviderSettings({ OPENAI_COMPATIBLE_BASE_URL: fake.url, OPENAI_COMPATIBLE_API_KEY: "test-key" });
});

afterEach(() => {
  const unconsumed = fake.pendingReplies();
  fake.reset();
  expect(unconsumed, "scripted replies left unconsumed").toBe(0);
});

afterAll(async () => {
  await fake.close();
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

function chatRequests() {
  return fake.requests.filter((request) => request.path === "/v1/chat/completions");
}

describe("callModel against an OpenAI-compatible server", () => {
  it("streams text and reports usage and finish reason", async () => {
    fake.enqueue({ text: "Hello there, dear world" });
    const deltas: string[] = [];

    const result = await callModel({
      spec: { ...spec, temperature: 0.3, maxOutputTokens: 50 },
      settings,
      system: "Be brief.",
      messages: [{ role: "user", text: "say hi to the world" }],
      signal: new AbortController().signal,
      onTextDelta: (delta) => deltas.push(delta),
    });

    expect(result.text).toBe("Hello there, dear world");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(result.text);
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe("stop");
    // As the fake counts tokens (fake-tokenizer.ts): the request it received, and the reply's text.
    expect(result.usage).toEqual({
      inputTokens: promptTokens(fake.requests.at(-1)!.body),
      outputTokens: countFakeTokens("Hello there, dear world"),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
    expect(result.providerLatencyMs).toBeGreaterThanOrEqual(0);

    const [request] = chatRequests();
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.body).toMatchObject({
      model: "fake-model",
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.3,
      max_tokens: 50,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "say hi to the world" },
      ],
    });
  });

  it("streams tool-call inputs as they form through onDelta (the fragments make the call's input JSON)", async () => {
    fake.enqueue({
      text: "Let me look.",
      toolCalls: [{ id: "call_1", name: "lookup", arguments: { query: "weather" } }],
    });
    const deltas: unknown[] = [];
    const text: string[] = [];

    const result = await callModel({
      spec,
      settings,
      messages: hello,
      tools: [{ name: "lookup", description: "Looks things up", inputSchema: { type: "object" } }],
      onTextDelta: (delta) => text.push(delta),
      onDelta: (delta) => deltas.push(delta),
    });

    expect(chatRequests()[0]?.body.stream).toBe(true);
    expect(text.join("")).toBe("Let me look.");
    expect(result.toolCalls).toEqual([{ id: "call_1", name: "lookup", input: { query: "weather" } }]);
    expect(deltas.length).toBeGreaterThan(1);
    for (const delta of deltas)
      expect(delta).toMatchObject({ kind: "tool_input", toolCallId: "call_1", toolName: "lookup" });
    expect(JSON.parse(deltas.map((delta) => (delta as { delta: string }).delta).join(""))).toEqual({
      query: "weather",
    });
  });

  it("returns tool calls with parsed input without executing anything", async () => {
    fake.enqueue({
      text: "Let me look.",
      toolCalls: [
        { id: "call_1", name: "lookup", arguments: { query: "weather", limit: 2 } },
        { id: "call_2", name: "docs__search", arguments: "{}" },
      ],
    });

    const result = await callModel({
      spec,
      settings,
      messages: hello,
      tools: [
        {
          name: "lookup",
          description: "Looks things up",
          inputSchema: {
            type: "object",
            properties: { query: { type: "string" }, limit: { type: "number" } },
            required: ["query"],
          },
        },
        { name: "docs__search", description: "Searches docs", inputSchema: { type: "object", properties: {} } },
      ],
    });

    expect(result.finishReason).toBe("tool-calls");
    expect(result.text).toBe("Let me look.");
    expect(result.toolCalls).toEqual([
      { id: "call_1", name: "lookup", input: { query: "weather", limit: 2 } },
      { id: "call_2", name: "docs__search", input: {} },
    ]);
    const [request] = chatRequests();
    expect(request.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "lookup",
          description: "Looks things up",
          parameters: {
            type: "object",
            properties: { query: { type: "string" }, limit: { type: "number" } },
            required: ["query"],
          },
        },
      },
      {
        type: "function",
        function: {
          name: "docs__search",
          description: "Searches docs",
          parameters: { type: "object", properties: {} },
        },
      },
    ]);
  });

  it("flags tool calls whose input is not JSON or whose tool is unknown", async () => {
    fake.enqueue({
      toolCalls: [
        { id: "call_bad", name: "lookup", arguments: "{not json" },
        { id: "call_ghost", name: "ghost", arguments: "{}" },
      ],
    });

    const result = await callModel({
      spec,
      settings,
      messages: hello,
      tools: [{ name: "lookup", description: "Looks things up", inputSchema: { type: "object" } }],
    });

    expect(result.toolCalls).toEqual([
      { id: "call_bad", name: "lookup", input: "{not json", inputError: expect.any(String) },
      { id: "call_ghost", name: "ghost", input: {}, inputError: expect.stringContaining("ghost") },
    ]);
  });

  it("sends the whole conversation, including tool calls and their results", async () => {
    fake.enqueue({ text: "done" });

    await callModel({
      spec,
      settings,
      messages: [
        { role: "user", text: "what is 2+3?" },
        { role: "assistant", text: "Adding.", toolCalls: [{ id: "c1", name: "calc__add", input: { a: 2, b: 3 } }] },
        {
          role: "tool",
          results: [{ toolCallId: "c1", toolName: "calc__add", output: "5", isError: false }],
        },
        { role: "assistant", toolCalls: [{ id: "c2", name: "calc__div", input: { a: 1, b: 0 } }] },
        {
          role: "tool",
          results: [{ toolCallId: "c2", toolName: "calc__div", output: "division by zero", isError: true }],
        },
        { role: "assistant" },
        { role: "user", text: "thanks" },
      ],
    });

    const [request] = chatRequests();
    expect(request.body.messages).toEqual([
      { role: "user", content: "what is 2+3?" },
      {
        role: "assistant",
        content: "Adding.",
        tool_calls: [{ id: "c1", type: "function", function: { name: "calc__add", arguments: '{"a":2,"b":3}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "5" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c2", type: "function", function: { name: "calc__div", arguments: '{"a":1,"b":0}' } }],
      },
      { role: "tool", tool_call_id: "c2", content: "division by zero" },
      { role: "user", content: "thanks" },
    ]);
  });

  it("retries a 503 answered before any token, then succeeds", async () => {
    fake.enqueue({ status: 503 }, { text: "recovered" });

    const result = await callModel({ spec, settings, messages: hello, retry: fastRetry });

    expect(result.text).toBe("recovered");
    expect(chatRequests()).toHaveLength(2);
  });

  it("retries a stream that breaks before its first token", async () => {
    fake.enqueue({ text: "lost", failMidStream: { afterChunks: 0, kind: "disconnect" } }, { text: "second try" });
    const deltas: string[] = [];

    const result = await callModel({
      spec,
      settings,
      messages: hello,
      retry: fastRetry,
      onTextDelta: (d) => deltas.push(d),
    });

    expect(result.text).toBe("second try");
    expect(deltas.join("")).toBe("second try");
    expect(chatRequests()).toHaveLength(2);
  });

  it("gives up after the configured attempts with the provider's status", async () => {
    fake.enqueue({ status: 503 }, { status: 500 }, { status: 503 });

    const error = await rejection(callModel({ spec, settings, messages: hello, retry: { ...fastRetry, attempts: 3 } }));

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: "model.provider_error", status: 503 });
    expect(chatRequests()).toHaveLength(3);
  });

  it("reports rate limiting as model.rate_limited", async () => {
    fake.enqueue({ status: 429, body: { error: { message: "slow down", type: "rate_limit_error" } } });

    const error = await rejection(callModel({ spec, settings, messages: hello, retry: { ...fastRetry, attempts: 1 } }));

    expect(error).toMatchObject({ code: "model.rate_limited", status: 429 });
    expect((error as Error).message).toContain("slow down");
  });

  it("does not retry client errors", async () => {
    fake.enqueue({
      status: 400,
      body: { error: { message: "bad request: unknown field", type: "invalid_request_error" } },
    });

    const error = await rejection(callModel({ spec, settings, messages: hello, retry: fastRetry }));

    expect(error).toMatchObject({ code: "model.provider_error", status: 400 });
    expect(chatRequests()).toHaveLength(1);
  });

  it("fails without retrying when the stream errors after the first token", async () => {
    fake.enqueue(
      {
        text: "partial answer that breaks",
        failMidStream: { afterChunks: 1, kind: "error-event", message: "overloaded" },
      },
      { text: "must not be requested" },
    );
    const deltas: string[] = [];

    const error = await rejection(
      callModel({ spec, settings, messages: hello, retry: fastRetry, onTextDelta: (d) => deltas.push(d) }),
    );

    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).message).toContain("overloaded");
    expect(deltas.join("")).toBe("partial ");
    expect(chatRequests()).toHaveLength(1);
    fake.reset();
  });

  it("fails without retrying when the connection drops after the first token", async () => {
    fake.enqueue({ text: "partial answer that breaks", failMidStream: { afterChunks: 2, kind: "disconnect" } });

    const error = await rejection(
      callModel({ spec, settings, messages: hello, retry: fastRetry, onTextDelta: () => {} }),
    );

    expect(error).toMatchObject({ code: "model.provider_error" });
    expect(chatRequests()).toHaveLength(1);
  });

  it("without a reader of the text as it comes, asks for one response, not a stream", async () => {
    fake.enqueue({
      text: "Let me look.",
      toolCalls: [{ id: "call_9", name: "lookup", arguments: { query: "tides" } }],
      usage: { promptTokens: 12, completionTokens: 5 },
    });
    const lookup = { name: "lookup", description: "Looks things up", inputSchema: { type: "object" } };

    const result = await callModel({ spec, settings, messages: hello, tools: [lookup] });

    expect(result).toMatchObject({
      text: "Let me look.",
      toolCalls: [{ id: "call_9", name: "lookup", input: { query: "tides" } }],
      usage: { inputTokens: 12, outputTokens: 5 },
      finishReason: "tool-calls",
    });
    const [request] = chatRequests();
    expect(request.body.stream).not.toBe(true);
    expect(request.body).toMatchObject({ model: "fake-model", messages: [{ role: "user", content: "hello" }] });
  });

  it("without a reader, retries a response cut off while it was generated (nothing had reached the caller)", async () => {
    fake.enqueue({ text: "lost", failMidStream: { afterChunks: 1, kind: "disconnect" } }, { text: "second try" });

    const result = await callModel({ spec, settings, messages: hello, retry: fastRetry });

    expect(result.text).toBe("second try");
    expect(chatRequests()).toHaveLength(2);
  });

  it("aborting a slow stream rejects with ModelCallAborted and closes the HTTP stream", async () => {
    fake.enqueue({ text: "one two three four five six seven eight nine ten", chunkDelayMs: 300 });
    const controller = new AbortController();
    const deltas: string[] = [];

    const error = await rejection(
      callModel({
        spec,
        settings,
        messages: hello,
        signal: controller.signal,
        onTextDelta: (delta) => {
          deltas.push(delta);
          controller.abort();
        },
      }),
    );

    expect(error).toBeInstanceOf(ModelCallAborted);
    expect((error as Error).name).toBe("AbortError");
    expect(deltas).toEqual(["one "]);
    await vi.waitFor(() => expect(chatRequests()[0].outcome).toBe("client-closed"));
  });

  it("aborting a request that never answers rejects with ModelCallAborted", async () => {
    fake.enqueue({ hang: true });
    const controller = new AbortController();

    const call = callModel({ spec, settings, messages: hello, signal: controller.signal });
    await vi.waitFor(() => expect(chatRequests()).toHaveLength(1));
    controller.abort();

    expect(await rejection(call)).toBeInstanceOf(ModelCallAborted);
    await vi.waitFor(() => expect(chatRequests()[0].outcome).toBe("client-closed"));
  });

  it("aborting during the retry back-off rejects without another attempt", async () => {
    fake.enqueue({ status: 503 });
    const controller = new AbortController();

    const call = callModel({
      spec,
      settings,
      messages: hello,
      signal: controller.signal,
      retry: { baseDelayMs: 20_000, maxDelayMs: 20_000, jitter: 0 },
    });
    await vi.waitFor(() => expect(chatRequests()[0]?.outcome).toBe("completed"));
    controller.abort();

    expect(await rejection(call)).toBeInstanceOf(ModelCallAborted);
    expect(chatRequests()).toHaveLength(1);
  });

  it("rejects an already aborted call without contacting the provider", async () => {
    const error = await rejection(callModel({ spec, settings, messages: hello, signal: AbortSignal.abort() }));

    expect(error).toBeInstanceOf(ModelCallAborted);
    expect(fake.requests).toHaveLength(0);
  });

  it("reports an unconfigured provider as model.unavailable", async () => {
    const error = await rejection(callModel({ spec, settings: readProviderSettings({}), messages: hello }));

    expect(error).toMatchObject({ code: "model.unavailable" });
    expect((error as Error).message).toContain("OPENAI_COMPATIBLE_BASE_URL");
  });

  it("retries and then reports an unreachable provider", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await rejection(
      callModel({
        spec,
        settings: readProviderSettings({ OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${port}/v1` }),
        messages: hello,
        retry: fastRetry,
      }),
    );

    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ code: "model.provider_error", status: undefined });
    expect((error as Error).message).toMatch(/after 3 attempts/);
  });

  it("passes an exception from onTextDelta through untouched, without retrying", async () => {
    fake.enqueue({ text: "some streamed text" });
    const boom = new Error("subscriber failed");

    const error = await rejection(
      callModel({
        spec,
        settings,
        messages: hello,
        retry: fastRetry,
        onTextDelta: () => {
          throw boom;
        },
      }),
    );

    expect(error).toBe(boom);
    expect(chatRequests()).toHaveLength(1);
  });

  it("answers unattended with an echo when nothing is scripted", async () => {
    const result = await callModel({ spec, settings, messages: [{ role: "user", text: "ping pong" }] });

    expect(result.text).toBe("ping pong");
  });
});
