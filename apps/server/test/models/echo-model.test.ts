import { describe, expect, it } from "vitest";
import { callModel } from "../../src/models/call-model.js";
import type { ConversationMessage } from "../../src/models/messages.js";
import { ModelCallAborted } from "../../src/models/model-errors.js";
import { parseModelSpec } from "../../src/models/model-spec.js";
import { readProviderSettings } from "../../src/models/providers.js";

const parsed = parseModelSpec("builtin/echo");
if (!parsed.ok) throw new Error("builtin/echo must parse");
const echo = parsed.spec;
// No provider is configured: the echo model needs none.
const settings = readProviderSettings({});

describe("builtin/echo", () => {
  it("replies with the text of the last user message, streaming it once", async () => {
    const deltas: string[] = [];
    const messages: ConversationMessage[] = [
      { role: "user", text: "first question" },
      { role: "assistant", text: "first answer" },
      { role: "user", text: "second question here" },
      { role: "assistant", toolCalls: [{ id: "t1", name: "x", input: { q: 1 } }] },
      { role: "tool", results: [{ toolCallId: "t1", toolName: "x", output: "tool output", isError: false }] },
    ];

    const result = await callModel({
      spec: echo,
      settings,
      system: "You echo.",
      messages,
      tools: [{ name: "x", description: "never called", inputSchema: { type: "object" } }],
      onTextDelta: (delta) => deltas.push(delta),
    });

    expect(result.text).toBe("second question here");
    expect(deltas).toEqual(["second question here"]);
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe("stop");
    expect(result.usage.outputTokens).toBe(3);
    // system 2 + user 2 + assistant 2 + user 3 + tool input 1 + tool output 2
    expect(result.usage.inputTokens).toBe(12);
  });

  it("replies with an empty string when there is no user message", async () => {
    const deltas: string[] = [];
    const result = await callModel({ spec: echo, settings, messages: [], onTextDelta: (d) => deltas.push(d) });

    expect(result).toMatchObject({ text: "", usage: { inputTokens: 0, outputTokens: 0 } });
    expect(deltas).toEqual([]);
  });

  it("is deterministic", async () => {
    const messages: ConversationMessage[] = [{ role: "user", text: "same input" }];
    const first = await callModel({ spec: echo, settings, messages });
    const second = await callModel({ spec: echo, settings, messages });

    expect({ ...first, providerLatencyMs: 0 }).toEqual({ ...second, providerLatencyMs: 0 });
  });

  it("honours an abort signal, even one raised right after the call starts", async () => {
    const messages: ConversationMessage[] = [{ role: "user", text: "hi" }];
    await expect(callModel({ spec: echo, settings, messages, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      ModelCallAborted,
    );

    const controller = new AbortController();
    const call = callModel({ spec: echo, settings, messages, signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(ModelCallAborted);
  });
});
