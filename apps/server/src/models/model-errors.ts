export type ModelCallErrorCode = "model.unavailable" | "model.provider_error" | "model.rate_limited";

/** A model call that failed for good (after any retries). `message` never contains credentials. */
export class ModelCallError extends Error {
  override readonly name = "ModelCallError";
  readonly code: ModelCallErrorCode;
  readonly status?: number;

  constructor(code: ModelCallErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
  }
}

/**
 * The caller's signal aborted the model call. Named `AbortError` so generic abort checks
 * (`error.name === "AbortError"`) treat it like a DOM abort.
 */
export class ModelCallAborted extends Error {
  override readonly name = "AbortError";

  constructor(message = "Model call aborted") {
    super(message);
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelCallAborted();
}
