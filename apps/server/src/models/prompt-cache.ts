import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import type { ModelSpec } from "./model-spec.js";

const EPHEMERAL = { anthropic: { cacheControl: { type: "ephemeral" } } } as const;

/**
 * Marks the stable prefix of an Anthropic prompt for its prompt cache (other providers cache without markers, or
 * not at all): a breakpoint on the system prompt (which follows the tools in Anthropic's cache order, so tools and
 * system are cached together) and one on the last message. The next call of the turn sends the same conversation plus
 * the response and its tool results, so it reads everything up to the previous call's last message from the cache
 * (Anthropic finds the earlier breakpoint within the 20 blocks it looks back). Two of the four breakpoints allowed.
 */
export function withCacheBreakpoints(spec: ModelSpec, prompt: LanguageModelV3Prompt): LanguageModelV3Prompt {
  if (spec.provider !== "anthropic" || prompt.length === 0) return prompt;
  const lastSystem = prompt.findLastIndex((message) => message.role === "system");
  const last = prompt.length - 1;
  return prompt.map((message, i) =>
    i === lastSystem || i === last
      ? { ...message, providerOptions: { ...message.providerOptions, ...EPHEMERAL } }
      : message,
  ) as LanguageModelV3Prompt;
}

/**
 * The same breakpoints on a conversation in the AI SDK's message form (the streamed call, `streamText`): the system
 * prompt goes in as a message so that it can carry its marker.
 */
export function withMessageCacheBreakpoints(
  spec: ModelSpec,
  system: string | undefined,
  messages: ModelMessage[],
): { system?: string; messages: ModelMessage[] } {
  if (spec.provider !== "anthropic" || messages.length === 0) {
    return { ...(system ? { system } : {}), messages };
  }
  const last = messages.length - 1;
  const marked = messages.map((message, i) =>
    i === last
      ? ({ ...message, providerOptions: { ...message.providerOptions, ...EPHEMERAL } } as ModelMessage)
      : message,
  );
  if (!system) return { messages: marked };
  return { messages: [{ role: "system", content: system, providerOptions: EPHEMERAL }, ...marked] };
}
