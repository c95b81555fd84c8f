import { APICallError, RetryError } from "ai";
import type { ModelCallErrorCode } from "./model-errors.js";

export interface ClassifiedProviderError {
  code: Extract<ModelCallErrorCode, "model.provider_error" | "model.rate_limited" | "model.context_overflow">;
  /** With `model.context_overflow`: the window the provider's message names, if it does. */
  contextWindow?: number;
  message: string;
  status?: number;
  /** Worth another attempt if nothing was streamed yet: overload, rate limit, 5xx, network. */
  retryable: boolean;
  retryAfterMs?: number;
}

const NETWORK_ERROR_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** Socket-level failures, including undici's `TypeError: terminated` when a body stream is cut. */
function isNetworkError(error: unknown): boolean {
  for (let current = error, depth = 0; current != null && depth < 5; depth++) {
    const code = errorCode(current);
    if (code && NETWORK_ERROR_CODES.has(code)) return true;
    if (current instanceof TypeError && /^(terminated|fetch failed|other side closed)/i.test(current.message)) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers["retry-after"];
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * A refusal of a prompt longer than the window, as each provider words it: OpenAI 400 `context_length_exceeded`
 * ("This model's maximum context length is N tokens…", also vLLM's `BadRequestError` and LiteLLM's
 * `ContextWindowExceededError`), Anthropic 400 `invalid_request_error` "prompt is too long: N tokens > M maximum",
 * Ollama "input length exceeds the context length" / llama.cpp "exceeds the available context size".
 */
const CONTEXT_OVERFLOW =
  /context_length_exceeded|prompt is too long|maximum context length|ContextWindowExceeded|exceeds? (the )?(maximum )?(available )?context (length|size|window)|input length exceeds|too many tokens/i;

function contextWindowNamed(text: string): number | undefined {
  const match =
    /maximum context length is (\d+)/i.exec(text) ??
    /tokens? > (\d+) maximum/i.exec(text) ??
    /context (?:length|size|window)(?: of| is)? \(?(\d+)/i.exec(text);
  const value = match ? Number(match[1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function contextOverflow(status: number, text: string): ClassifiedProviderError | undefined {
  if ((status !== 400 && status !== 413 && status !== 422 && status !== 500) || !CONTEXT_OVERFLOW.test(text)) {
    return undefined;
  }
  const window = contextWindowNamed(text);
  return {
    code: "model.context_overflow",
    status,
    message: `Model provider refused the prompt as too long (HTTP ${status})`,
    retryable: false,
    ...(window !== undefined ? { contextWindow: window } : {}),
  };
}

function fromStatus(
  status: number,
  detail: string,
  headers?: Record<string, string>,
  body?: string,
): ClassifiedProviderError {
  const overflow = contextOverflow(status, `${detail}\n${body ?? ""}`);
  if (overflow) return overflow;
  const after = retryAfterMs(headers);
  const base = { status, message: `Model provider answered HTTP ${status}: ${detail}` };
  if (status === 429) {
    return {
      ...base,
      code: "model.rate_limited",
      retryable: true,
      ...(after !== undefined ? { retryAfterMs: after } : {}),
    };
  }
  const retryable = status === 408 || status >= 500;
  return { ...base, code: "model.provider_error", retryable, ...(after !== undefined ? { retryAfterMs: after } : {}) };
}

/**
 * Error objects that providers stream inside an HTTP 200 response
 * (OpenAI `{ error: { type, code, message } }`, Anthropic `{ type: "overloaded_error", message }`).
 */
function fromStreamedErrorObject(error: Record<string, unknown>): ClassifiedProviderError {
  const kind = [error.type, error.code].filter((part) => typeof part === "string").join(" ");
  const detail = typeof error.message === "string" ? error.message : JSON.stringify(error);
  const message = `Model provider reported an error: ${detail}`;
  if (/rate[_ ]?limit/i.test(kind)) return { code: "model.rate_limited", message, retryable: true };
  const retryable = /overload|server_error|internal|unavailable|timeout/i.test(kind);
  return { code: "model.provider_error", message, retryable };
}

export function classifyProviderError(error: unknown): ClassifiedProviderError {
  const inner = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(inner)) {
    if (inner.statusCode !== undefined && inner.statusCode >= 400) {
      return fromStatus(inner.statusCode, inner.message, inner.responseHeaders, inner.responseBody);
    }
    // No status, or a 2xx whose body broke while being read: a connection problem.
    return {
      code: "model.provider_error",
      message: `Model provider unreachable: ${inner.message}`,
      retryable: inner.isRetryable || isNetworkError(inner),
    };
  }
  if (isNetworkError(inner)) {
    const detail = inner instanceof Error ? inner.message : String(inner);
    return {
      code: "model.provider_error",
      message: `Connection to the model provider failed: ${detail}`,
      retryable: true,
    };
  }
  if (inner instanceof Error) {
    return { code: "model.provider_error", message: `Model call failed: ${inner.message}`, retryable: false };
  }
  if (typeof inner === "object" && inner !== null) return fromStreamedErrorObject(inner as Record<string, unknown>);
  return { code: "model.provider_error", message: `Model call failed: ${String(inner)}`, retryable: false };
}
