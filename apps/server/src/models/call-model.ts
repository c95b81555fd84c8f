import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { classifyProviderError } from "./classify-provider-error.js";
import { callEchoModel } from "./echo-model.js";
import {
  generateWithLanguageModel,
  type LanguageModelRequest,
  toLanguageModelPrompt,
  toLanguageModelTools,
} from "./language-model-call.js";
import { type ConversationMessage, toModelMessages } from "./messages.js";
import { AttemptFailed, CallbackFailed } from "./model-attempt.js";
import { ModelCallAborted, ModelCallError, throwIfAborted } from "./model-errors.js";
import type { ModelCallResult, ModelToolDefinition } from "./model-result.js";
import type { ModelSpec } from "./model-spec.js";
import { withCacheBreakpoints, withMessageCacheBreakpoints } from "./prompt-cache.js";
import { createLanguageModel, type ProviderSettings } from "./providers.js";
import { reasoningProviderOptions } from "./reasoning-options.js";
import { type RetryPolicy, resolveRetryPolicy, retryDelayMs } from "./retry-policy.js";
import { callScriptModel } from "./script-model.js";
import { type ModelStreamDelta, type PreparedRequest, streamOnce, toToolSet } from "./stream-model-call.js";

export type { ModelStreamDelta } from "./stream-model-call.js";

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
  const providerOptions = reasoningProviderOptions(options.spec, options.promptCacheKey);
  const streamRequest: PreparedRequest = {
    model,
    ...withMessageCacheBreakpoints(options.spec, options.system || undefined, messages),
    ...(options.tools && options.tools.length > 0 ? { tools: toToolSet(options.tools) } : {}),
    ...settings,
    ...(providerOptions ? { providerOptions } : {}),
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
