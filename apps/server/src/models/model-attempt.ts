import type { ClassifiedProviderError } from "./classify-provider-error.js";

/** One failed attempt; `streamed` tells whether any output had reached the caller. */
export class AttemptFailed extends Error {
  constructor(
    readonly failure: ClassifiedProviderError,
    readonly streamed: boolean,
    cause: unknown,
  ) {
    super(failure.message, { cause });
  }
}

/** An exception thrown by the caller's `onTextDelta`, passed through untouched. */
export class CallbackFailed {
  constructor(readonly error: unknown) {}
}
