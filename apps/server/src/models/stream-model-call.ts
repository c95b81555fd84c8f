import {
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  type ReasoningOutput,
  streamText,
  type ToolSet,
  type TypedToolCall,
  tool,
} from "ai";
import { classifyProviderError } from "./classify-provider-error.js";
import { AttemptFailed, CallbackFailed } from "./model-attempt.js";
import { ModelCallAborted, type PartialUsage, throwIfAborted } from "./model-errors.js";
import type {
  ModelCallResult,
  ModelFinishReason,
  ModelReasoningPart,
  ModelToolCall,
  ModelToolDefinition,
  ModelUsage,
} from "./model-result.js";
import type { reasoningProviderOptions } from "./reasoning-options.js";

/** A streamed fragment other than reply text: reasoning text, or the input JSON of a tool call as it forms. */
export type ModelStreamDelta =
  | { kind: "reasoning"; delta: string }
  | { kind: "tool_input"; delta: string; toolCallId: string; toolName: string };

export interface PreparedRequest {
  model: LanguageModel;
  system?: string;
  messages: ModelMessage[];
  tools?: ToolSet;
  temperature?: number;
  maxOutputTokens?: number;
  providerOptions?: ReturnType<typeof reasoningProviderOptions>;
}

/** What a streamed attempt reports to its caller as the reply is written. */
interface StreamCallbacks {
  signal?: AbortSignal;
  onTextDelta?: (delta: string) => void;
  onDelta?: (delta: ModelStreamDelta) => void;
}

export function toToolSet(tools: readonly ModelToolDefinition[] | undefined): ToolSet | undefined {
  if (!tools || tools.length === 0) return undefined;
  const set: ToolSet = {};
  for (const definition of tools) {
    // No `execute`: the SDK reports the calls and the runtime decides how to run them.
    set[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(definition.inputSchema as Parameters<typeof jsonSchema>[0]),
    });
  }
  return set;
}

function describeInvalidToolCall(error: unknown): string {
  return error instanceof Error ? error.message : "invalid tool call";
}

export async function streamOnce(request: PreparedRequest, options: StreamCallbacks): Promise<ModelCallResult> {
  const { signal, onTextDelta, onDelta } = options;
  const toolNames = new Map<string, string>();
  const pass = (delta: ModelStreamDelta) => {
    try {
      onDelta?.(delta);
    } catch (error) {
      throw new CallbackFailed(error);
    }
  };
  const attempt = new AbortController();
  const forwardAbort = () => attempt.abort(signal?.reason);
  signal?.addEventListener("abort", forwardAbort, { once: true });
  const started = performance.now();
  let streamed = false;
  let text = "";
  const toolCalls: ModelToolCall[] = [];
  let usage: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  let finishReason: ModelFinishReason = "other";
  let reasoning: ModelReasoningPart[] = [];
  let finished = false;
  // The prompt's tokens, when the provider reports them as its stream starts (Anthropic's `message_start`).
  let prompt: PartialUsage | undefined;
  // What had been written when the caller stopped the reply (and the usage the provider reported before).
  const cutShort = () => {
    const reported = finished ? usage : prompt;
    return new ModelCallAborted(
      undefined,
      text.length > 0 ? { text, ...(reported ? { usage: reported } : {}) } : undefined,
    );
  };
  try {
    throwIfAborted(signal);
    const result = streamText({
      ...request,
      maxRetries: 0,
      // The system prompt is the agent's own, sent as a message only to carry its cache breakpoint (Anthropic).
      allowSystemInMessages: true,
      abortSignal: attempt.signal,
      // Anthropic reports the prompt's tokens as its stream starts: read from the raw events, kept if it is stopped.
      includeRawChunks: reportsPromptFirst(request.model),
      // Errors are read from the stream below; the default handler would print them to stderr.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case "text-delta":
          if (part.text.length === 0) break;
          streamed = true;
          text += part.text;
          try {
            onTextDelta?.(part.text);
          } catch (error) {
            throw new CallbackFailed(error);
          }
          break;
        case "reasoning-delta":
          streamed = true;
          if (part.text.length > 0) pass({ kind: "reasoning", delta: part.text });
          break;
        case "tool-input-start":
          streamed = true;
          toolNames.set(part.id, part.toolName);
          break;
        case "tool-input-delta":
          streamed = true;
          if (part.delta.length > 0) {
            pass({
              kind: "tool_input",
              delta: part.delta,
              toolCallId: part.id,
              toolName: toolNames.get(part.id) ?? "",
            });
          }
          break;
        case "tool-call":
          streamed = true;
          toolCalls.push(toModelToolCall(part));
          break;
        case "finish":
          usage = {
            inputTokens: part.totalUsage.inputTokens ?? 0,
            outputTokens: part.totalUsage.outputTokens ?? 0,
            cacheReadTokens: part.totalUsage.inputTokenDetails?.cacheReadTokens ?? 0,
            cacheWriteTokens: part.totalUsage.inputTokenDetails?.cacheWriteTokens ?? 0,
            reasoningTokens: part.totalUsage.outputTokenDetails?.reasoningTokens ?? 0,
          };
          finishReason = part.finishReason;
          finished = true;
          break;
        case "raw":
          prompt = promptUsageOf(part.rawValue) ?? prompt;
          break;
        case "error":
          throw new AttemptFailed(classifyProviderError(part.error), streamed, part.error);
        case "abort":
          throw cutShort();
      }
    }
    reasoning = thinkingOf(await result.reasoning);
  } catch (error) {
    if (signal?.aborted) throw cutShort();
    if (error instanceof AttemptFailed || error instanceof CallbackFailed || error instanceof ModelCallAborted) {
      throw error;
    }
    throw new AttemptFailed(classifyProviderError(error), streamed, error);
  } finally {
    signal?.removeEventListener("abort", forwardAbort);
    // Releases the HTTP stream on every early exit; a no-op once the stream has ended.
    attempt.abort();
  }
  return {
    text,
    toolCalls,
    ...(reasoning.length > 0 ? { reasoning } : {}),
    usage,
    finishReason,
    providerLatencyMs: performance.now() - started,
  };
}

function reportsPromptFirst(model: LanguageModel): boolean {
  return typeof model === "object" && model.provider.startsWith("anthropic");
}

/** Anthropic's `message_start`: the prompt's tokens (its `input_tokens` are those neither read from nor written to the cache). */
function promptUsageOf(raw: unknown): PartialUsage | undefined {
  const event = raw as { type?: string; message?: { usage?: Record<string, unknown> } } | null;
  const usage = event?.type === "message_start" ? event.message?.usage : undefined;
  if (!usage || typeof usage.input_tokens !== "number") return undefined;
  const read = typeof usage.cache_read_input_tokens === "number" ? usage.cache_read_input_tokens : 0;
  const written = typeof usage.cache_creation_input_tokens === "number" ? usage.cache_creation_input_tokens : 0;
  return { inputTokens: usage.input_tokens + read + written, cacheReadTokens: read, cacheWriteTokens: written };
}

/** The streamed reply's thinking, kept as the non-streamed path keeps it (its provider metadata is what goes back). */
function thinkingOf(parts: readonly ReasoningOutput[]): ModelReasoningPart[] {
  return parts.map((part) => ({
    text: part.text,
    ...(part.providerMetadata
      ? { providerMetadata: part.providerMetadata as ModelReasoningPart["providerMetadata"] }
      : {}),
  }));
}

function toModelToolCall(call: TypedToolCall<ToolSet>): ModelToolCall {
  return {
    id: call.toolCallId,
    name: call.toolName,
    input: call.input,
    ...(call.invalid ? { inputError: describeInvalidToolCall(call.error) } : {}),
  };
}
