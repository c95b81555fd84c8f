import type { ConversationMessage } from "./messages.js";
import { lastUserText } from "./messages.js";
import { throwIfAborted } from "./model-errors.js";
import type { ModelCallResult } from "./model-result.js";

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

function messageText(message: ConversationMessage): string {
  switch (message.role) {
    case "user":
      return message.text;
    case "assistant":
      return [message.text ?? "", ...(message.toolCalls ?? []).map((call) => JSON.stringify(call.input))].join(" ");
    case "tool":
      return message.results.map((result) => result.output).join(" ");
  }
}

/**
 * `builtin/echo`: replies with the last user message's text. Deterministic and offline; it never
 * calls tools. Token usage is approximated by word counts.
 */
export async function callEchoModel(options: {
  system?: string;
  messages: readonly ConversationMessage[];
  signal?: AbortSignal;
  onTextDelta?: (delta: string) => void;
}): Promise<ModelCallResult> {
  const started = performance.now();
  throwIfAborted(options.signal);
  const text = lastUserText(options.messages);
  const input = [options.system ?? "", ...options.messages.map(messageText)].join(" ");
  // Yield once so that an abort raised by the caller right after starting the call is observed.
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfAborted(options.signal);
  if (text.length > 0) options.onTextDelta?.(text);
  return {
    text,
    toolCalls: [],
    usage: { inputTokens: countWords(input), outputTokens: countWords(text) },
    finishReason: "stop",
    providerLatencyMs: performance.now() - started,
  };
}
