import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { generateText, jsonSchema, type ToolSet, tool } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { callModel } from "../../src/models/call-model.js";
import {
  generateWithLanguageModel,
  toLanguageModelPrompt,
  toLanguageModelTools,
} from "../../src/models/language-model-call.js";
import { type ConversationMessage, toModelMessages } from "../../src/models/messages.js";
import { ModelCallError } from "../../src/models/model-errors.js";
import type { ModelToolDefinition } from "../../src/models/model-result.js";
import { readProviderSettings } from "../../src/models/providers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";

// The direct call (`language-model-call.ts`) must do what `generateText` does for one step: the same request on the
// wire for every provider, the same result. Each case runs both against the same fake and compares.

let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});

afterEach(() => {
  fake.reset();
});

afterAll(async () => {
  await fake.close();
});

const tools: ModelToolDefinition[] = [
  {
    name: "lookup",
    description: "Looks things up",
    inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  },
  { name: "calc__add", description: "Adds", inputSchema: { type: "object", properties: {} } },
];

const conversation: ConversationMessage[] = [
  { role: "user", text: "what is 2+3?" },
  { role: "assistant", text: "Adding.", toolCalls: [{ id: "c1", name: "calc__add", input: { a: 2, b: 3 } }] },
  { role: "tool", results: [{ toolCallId: "c1", toolName: "calc__add", output: "5", isError: false }] },
  { role: "assistant", toolCalls: [{ id: "c2", name: "lookup", input: { query: "x" } }] },
  { role: "tool", results: [{ toolCallId: "c2", toolName: "lookup", output: "not found", isError: true }] },
  { role: "assistant" },
  { role: "user", text: "thanks" },
];

function toolSet(definitions: readonly ModelToolDefinition[]): ToolSet {
  return Object.fromEntries(
    definitions.map((d) => [
      d.name,
      tool({ description: d.description, inputSchema: jsonSchema(d.inputSchema as Parameters<typeof jsonSchema>[0]) }),
    ]),
  );
}

const models: Record<string, () => LanguageModelV3> = {
  "openai-compatible": () =>
    createOpenAICompatible({
      name: "openai-compatible",
      baseURL: `${fake.url}`,
      apiKey: "k",
      includeUsage: true,
    }).chatModel("fake-model"),
  openai: () => createOpenAI({ baseURL: `${fake.url}`, apiKey: "k" })("gpt-test"),
  anthropic: () => createAnthropic({ baseURL: `${fake.url}`, apiKey: "k" })("claude-test"),
};

async function settle(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => ({ value }),
    (error: Error) => ({ error: error.constructor.name, message: error.message }),
  );
}

describe("a model call through the provider's doGenerate", () => {
  for (const [provider, make] of Object.entries(models)) {
    it(`sends what generateText sends (${provider})`, async () => {
      const model = make();
      const settings = { temperature: 0.2, maxOutputTokens: 64 };
      const viaSdk = await settle(
        generateText({
          model,
          system: "Be brief.",
          messages: toModelMessages(conversation),
          tools: toolSet(tools),
          maxRetries: 0,
          ...settings,
        }),
      );
      const direct = await settle(
        generateWithLanguageModel(
          {
            model,
            prompt: toLanguageModelPrompt("Be brief.", toModelMessages(conversation)),
            tools: toLanguageModelTools(tools),
            ...settings,
          },
          undefined,
        ),
      );
      const [sdkRequest, directRequest] = fake.requests;
      expect(fake.requests).toHaveLength(2);
      expect(directRequest!.path).toBe(sdkRequest!.path);
      expect(directRequest!.body).toEqual(sdkRequest!.body);
      expect(directRequest!.headers).toEqual(sdkRequest!.headers);
      // Both answered (the fake speaks Chat Completions) or both failed alike (it does not speak the others).
      const outcome = (settled: unknown) => (settled as { error?: string }).error ?? "answered";
      expect(outcome(direct)).toBe(outcome(viaSdk));
      if (provider === "openai-compatible") expect(outcome(direct)).toBe("answered");
    });
  }

  // A tool result with an image part (an MCP image shown to the model) goes out as generateText sends it.
  const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").toString("base64");
  const withImage: ConversationMessage[] = [
    { role: "user", text: "show me" },
    { role: "assistant", toolCalls: [{ id: "i1", name: "calc__add", input: {} }] },
    {
      role: "tool",
      results: [
        {
          toolCallId: "i1",
          toolName: "calc__add",
          output: "here it is",
          isError: false,
          media: [{ type: "image", mimeType: "image/png", artifactId: "art_1", bytes: 16, data: PNG }],
        },
      ],
    },
  ];
  for (const [provider, make] of Object.entries(models)) {
    it(`sends a tool result's image as generateText does (${provider})`, async () => {
      const model = make();
      await settle(generateText({ model, messages: toModelMessages(withImage), tools: toolSet(tools), maxRetries: 0 }));
      await settle(
        generateWithLanguageModel(
          {
            model,
            prompt: toLanguageModelPrompt(undefined, toModelMessages(withImage)),
            tools: toLanguageModelTools(tools),
          },
          undefined,
        ),
      );
      const [sdkRequest, directRequest] = fake.requests;
      expect(directRequest!.body).toEqual(sdkRequest!.body);
      expect(JSON.stringify(directRequest!.body)).toContain(PNG);
    });
  }

  // A Chat Completions vision model is shown the images of tool results in a user message after them.
  const imagesAfter: ConversationMessage[] = [
    ...withImage.slice(0, 2),
    {
      role: "tool",
      results: [
        {
          toolCallId: "i1",
          toolName: "calc__add",
          output: "here it is",
          isError: false,
          media: [{ type: "image", mimeType: "image/png", artifactId: "art_1", bytes: 16, shownAfter: true }],
        },
      ],
    },
    {
      role: "user",
      text: "[Images from the tool results above: calc__add (art_1)]",
      images: [{ mimeType: "image/png", data: PNG }],
    },
  ];
  for (const [provider, make] of Object.entries(models)) {
    it(`sends a user message's image as generateText does (${provider})`, async () => {
      const model = make();
      const messages = toModelMessages(imagesAfter);
      await settle(generateText({ model, messages, tools: toolSet(tools), maxRetries: 0 }));
      await settle(
        generateWithLanguageModel(
          { model, prompt: toLanguageModelPrompt(undefined, messages), tools: toLanguageModelTools(tools) },
          undefined,
        ),
      );
      const [sdkRequest, directRequest] = fake.requests;
      expect(directRequest!.body).toEqual(sdkRequest!.body);
      expect(JSON.stringify(directRequest!.body)).toContain(PNG);
    });
  }

  it("returns what generateText returns: text, usage, finish reason, tool calls valid and invalid", async () => {
    const reply = {
      text: "Let me look.",
      toolCalls: [
        { id: "a", name: "lookup", arguments: { query: "weather" } },
        { id: "b", name: "calc__add", arguments: "" },
        { id: "c", name: "lookup", arguments: "{not json" },
        { id: "d", name: "ghost", arguments: '{"x":1}' },
        { id: "e", name: "ghost", arguments: "nope" },
      ],
    };
    const model = models["openai-compatible"]!();
    fake.enqueue(reply, reply);
    const sdk = await generateText({ model, messages: toModelMessages(conversation), tools: toolSet(tools) });
    const direct = await generateWithLanguageModel(
      {
        model,
        prompt: toLanguageModelPrompt(undefined, toModelMessages(conversation)),
        tools: toLanguageModelTools(tools),
      },
      undefined,
    );
    expect(direct.text).toBe(sdk.text);
    expect(direct.finishReason).toBe(sdk.finishReason);
    expect(direct.usage).toEqual({
      inputTokens: sdk.usage.inputTokens,
      outputTokens: sdk.usage.outputTokens,
      cacheReadTokens: sdk.usage.inputTokenDetails.cacheReadTokens,
      cacheWriteTokens: sdk.usage.inputTokenDetails.cacheWriteTokens ?? 0,
      reasoningTokens: sdk.usage.outputTokenDetails.reasoningTokens,
    });
    expect(direct.toolCalls).toEqual(
      sdk.toolCalls.map((call) => ({
        id: call.toolCallId,
        name: call.toolName,
        input: call.input,
        ...(call.invalid ? { inputError: (call.error as Error).message } : {}),
      })),
    );
    expect(direct.toolCalls.map((call) => call.inputError !== undefined)).toEqual([false, false, true, true, true]);
    expect(direct.toolCalls[1]!.input).toEqual({});
  });

  it("with no tools offered, a tool call is flagged as generateText flags it", async () => {
    const reply = { toolCalls: [{ id: "a", name: "lookup", arguments: { query: "q" } }] };
    const model = models["openai-compatible"]!();
    fake.enqueue(reply, reply);
    const sdk = await generateText({ model, prompt: "hi" });
    const direct = await generateWithLanguageModel(
      { model, prompt: toLanguageModelPrompt(undefined, toModelMessages([{ role: "user", text: "hi" }])) },
      undefined,
    );
    expect(direct.toolCalls).toEqual([
      { id: "a", name: "lookup", input: { query: "q" }, inputError: (sdk.toolCalls[0]!.error as Error).message },
    ]);
  });

  it("refuses, without a request, a conversation whose tool call has no result (as generateText does)", async () => {
    const settings = readProviderSettings({ OPENAI_COMPATIBLE_BASE_URL: fake.url });
    const error = await callModel({
      spec: { provider: "openai-compatible", modelId: "fake-model" },
      settings,
      messages: [
        { role: "user", text: "hi" },
        { role: "assistant", toolCalls: [{ id: "open", name: "lookup", input: {} }] },
        { role: "user", text: "and?" },
      ],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).message).toContain("open");
    expect(fake.requests).toHaveLength(0);
  });
});
