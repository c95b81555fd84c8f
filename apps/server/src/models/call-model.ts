import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  streamText,
  type ToolSet,
  type TypedToolCall,
  tool,
} from "ai";
import { type ClassifiedProviderError, classifyProviderError } from "./classify-provider-error.js";
import { callEchoModel } from "./echo-model.js";
import {
  generateWithLanguageModel,
  type LanguageModelRequest,
  toLanguageModelPrompt,
  toLanguageModelTools,
} from "./language-model-call.js";
import { type ConversationMessage, toModelMessages } from "./messages.js";
import { ModelCallAborted, ModelCallError, throwIfAborted } from "./model-errors.js";
import type {
  ModelCallResult,
  ModelFinishReason,
  ModelToolCall,
  ModelToolDefinition,
  ModelUsage,
} from "./model-result.js";
import type { ModelSpec } from "./model-spec.js";
import { withCacheBreakpoints } from "./prompt-cache.js";
import { createLanguageModel, type ProviderSettings } from "./providers.js";
import { reasoningProviderOptions } from "./reasoning-options.js";
import { type RetryPolicy, resolveRetryPolicy, retryDelayMs } from "./retry-policy.js";
import { callScriptModel } from "./script-model.js";

export interface CallModelOptions {
  spec: ModelSpec;
  settings: ProviderSettings;
  system?: string;
  messages: readonly ConversationMessage[];
  tools?: readonly ModelToolDefinition[];
  signal?: AbortSignal;
  /** Called with each streamed text fragment. Nothing is emitted for an attempt that is later retried. */
  onTextDelta?: (delta: string) => void;
  /** Called with streamed reasoning text and tool-call input fragments (the reply is streamed when set). */
  onDelta?: (delta: ModelStreamDelta) => void;
  retry?: Partial<RetryPolicy>;
  /** A key the provider groups cached prompts by (OpenAI's `prompt_cache_key`): the session's id. */
  promptCacheKey?: string;
}

/** A streamed fragment other than reply text: reasoning text, or the input JSON of a tool call as it forms. */
export type ModelStreamDelta =
  | { kind: "reasoning"; delta: string }
  | { kind: "tool_input"; delta: string; toolCallId: string; toolName: string };

interface PreparedRequest {
  model: LanguageModel;
  system?: string;
  messages: ModelMessage[];
  tools?: ToolSet;
  temperature?: number;
  maxOutputTokens?: number;
}

/** One failed attempt; `streamed` tells whether any output had reached the caller. */
class AttemptFailed extends Error {
  constructor(
    readonly failure: ClassifiedProviderError,
    readonly streamed: boolean,
    cause: unknown,
  ) {
    super(failure.message, { cause });
  }
}

/** An exception thrown by the caller's `onTextDelta`, passed through untouched. */
class CallbackFailed {
  constructor(readonly error: unknown) {}
}

function toToolSet(tools: readonly ModelToolDefinition[] | undefined): ToolSet | undefined {
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

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelCallAborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ModelCallAborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

async function streamOnce(request: PreparedRequest, options: CallModelOptions): Promise<ModelCallResult> {
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
  try {
    throwIfAborted(signal);
    const result = streamText({
      ...request,
      maxRetries: 0,
      abortSignal: attempt.signal,
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
          break;
        case "error":
          throw new AttemptFailed(classifyProviderError(part.error), streamed, part.error);
        case "abort":
          throw new ModelCallAborted();
      }
    }
  } catch (error) {
    if (signal?.aborted) throw new ModelCallAborted();
    if (error instanceof AttemptFailed || error instanceof CallbackFailed || error instanceof ModelCallAborted) {
      throw error;
    }
    throw new AttemptFailed(classifyProviderError(error), streamed, error);
  } finally {
    signal?.removeEventListener("abort", forwardAbort);
    // Releases the HTTP stream on every early exit; a no-op once the stream has ended.
    attempt.abort();
  }
  return { text, toolCalls, usage, finishReason, providerLatencyMs: performance.now() - started };
}

function toModelToolCall(call: TypedToolCall<ToolSet>): ModelToolCall {
  return {
    id: call.toolCallId,
    name: call.toolName,
    input: call.input,
    ...(call.invalid ? { inputError: describeInvalidToolCall(call.error) } : {}),
  };
}

/**
 * One attempt as a single request and response, when nobody reads the reply as it is written (the agent loop,
 * experiments, scorers): the provider's answer is parsed once, without the streaming pipeline (a fifth of the
 * model client's CPU) or `generateText`'s orchestration (`language-model-call.ts`). Nothing reaches the caller before
 * the end, so any retryable failure may be retried.
 */
async function generateOnce(request: LanguageModelRequest, signal: AbortSignal | undefined): Promise<ModelCallResult> {
  const started = performance.now();
  try {
    throwIfAborted(signal);
    const result = await generateWithLanguageModel(request, signal);
    return { ...result, providerLatencyMs: performance.now() - started };
  } catch (error) {
    if (signal?.aborted) throw new ModelCallAborted();
    if (error instanceof ModelCallAborted) throw error;
    throw new AttemptFailed(classifyProviderError(error), false, error);
  }
}

/** The prompt is converted once, before the first attempt: a conversation the SDK would refuse is refused here too. */
function directAttempt(
  model: LanguageModelV3,
  options: CallModelOptions,
  messages: ModelMessage[],
  settings: { temperature?: number; maxOutputTokens?: number },
): () => Promise<ModelCallResult> {
  let request: LanguageModelRequest;
  try {
    const tools = toLanguageModelTools(options.tools);
    const prompt = withCacheBreakpoints(options.spec, toLanguageModelPrompt(options.system || undefined, messages));
    const providerOptions = reasoningProviderOptions(options.spec, options.promptCacheKey);
    request = {
      model,
      prompt,
      ...(tools ? { tools } : {}),
      ...settings,
      ...(providerOptions ? { providerOptions } : {}),
    };
  } catch (error) {
    const failure = new AttemptFailed(classifyProviderError(error), false, error);
    return () => Promise.reject(failure);
  }
  return () => generateOnce(request, options.signal);
}

/**
 * One model step: returns text and tool calls (tools are never executed here). With `onTextDelta` the reply is
 * streamed and each text fragment passed on as it arrives; without, it is one request and one response.
 * Retries overload / rate-limit / 5xx / network failures that happen before anything was streamed.
 * Rejects with `ModelCallAborted` when `signal` aborts, otherwise with `ModelCallError`.
 */
export async function callModel(options: CallModelOptions): Promise<ModelCallResult> {
  throwIfAborted(options.signal);
  if (options.spec.provider === "builtin") {
    return options.spec.modelId === "script" ? callScriptModel(options) : callEchoModel(options);
  }

  const model = await createLanguageModel(options.spec, options.settings);
  const messages = toModelMessages(options.messages);
  const settings = {
    ...(options.spec.temperature !== undefined ? { temperature: options.spec.temperature } : {}),
    ...(options.spec.maxOutputTokens !== undefined ? { maxOutputTokens: options.spec.maxOutputTokens } : {}),
  };
  const streamRequest: PreparedRequest = {
    model,
    ...(options.system ? { system: options.system } : {}),
    messages,
    ...(options.tools && options.tools.length > 0 ? { tools: toToolSet(options.tools) } : {}),
    ...settings,
  };
  const once =
    options.onTextDelta || options.onDelta
      ? () => streamOnce(streamRequest, options)
      : directAttempt(model, options, messages, settings);
  const policy = resolveRetryPolicy(options.retry);

  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (error) {
      if (error instanceof CallbackFailed) throw error.error;
      if (!(error instanceof AttemptFailed)) throw error;
      const { failure, streamed } = error;
      if (streamed || !failure.retryable || attempt >= policy.attempts) {
        const suffix = streamed
          ? " (the response had already started streaming)"
          : attempt > 1
            ? ` (after ${attempt} attempts)`
            : "";
        throw new ModelCallError(failure.code, `${failure.message}${suffix}`, {
          ...(failure.status !== undefined ? { status: failure.status } : {}),
          ...(failure.contextWindow !== undefined ? { contextWindow: failure.contextWindow } : {}),
          cause: error.cause,
        });
      }
      await abortableDelay(retryDelayMs(policy, attempt, failure.retryAfterMs), options.signal);
    }
  }
}
