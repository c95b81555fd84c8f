export type ModelCallErrorCode =
  | "model.unavailable"
  | "model.provider_error"
  | "model.rate_limited"
  /** The provider refused the prompt as longer than the model's context window. */
  | "model.context_overflow";

/** A model call that failed for good (after any retries). `message` never contains credentials. */
export class ModelCallError extends Error {
  override readonly name = "ModelCallError";
  readonly code: ModelCallErrorCode;
  readonly status?: number;
  /** With `model.context_overflow`: the window the provider named, when its message says it. */
  readonly contextWindow?: number;

  constructor(
    code: ModelCallErrorCode,
    message: string,
    options: { status?: number; cause?: unknown; contextWindow?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
    if (options.contextWindow !== undefined) this.contextWindow = options.contextWindow;
  }
}

/** What the provider reported of a call's usage: `outputTokens` is absent when it had not reported them yet. */
export interface PartialUsage {
  inputTokens: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/**
 * The caller's signal aborted the model call. Named `AbortError` so generic abort checks
 * (`error.name === "AbortError"`) treat it like a DOM abort.
 */
export class ModelCallAborted extends Error {
  override readonly name = "AbortError";

  /**
   * @param partial the text a streamed reply had written when it was stopped (kept in the log when an interrupt stopped
   *   it), with what the provider reported of the usage before the stop: all of it when its stream had finished, the
   *   prompt's tokens when it reports them as its stream starts (Anthropic), nothing otherwise.
   */
  constructor(
    message = "Model call aborted",
    readonly partial?: { text: string; usage?: PartialUsage },
  ) {
    super(message);
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelCallAborted();
}
