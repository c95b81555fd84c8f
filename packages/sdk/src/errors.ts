import type { BudgetExceededDetails, ErrorCode, ValidationIssue } from "./generated/contract-types.js";

/**
 * An error code of the contract, or one a newer server added (`http.<status>` when the body was no envelope): compare
 * against the contract's codes and keep a default branch.
 */
export type ApiErrorCode = ErrorCode | (string & {});

/** `details` by code: typed where the contract documents them, loose otherwise. */
export type ApiErrorDetails<C extends ApiErrorCode> = [C] extends ["request.invalid"]
  ? { issues: ValidationIssue[] }
  : [C] extends ["budget.exceeded"]
    ? BudgetExceededDetails
    : Record<string, unknown> | undefined;

/** Every error this SDK throws (except an abort by your own `signal`, which rethrows its reason). */
export class AgentPlatformError extends Error {
  override name = "AgentPlatformError";
}

/** A non-2xx answer of the API, carrying the error envelope's fields. */
export class ApiError<C extends ApiErrorCode = ApiErrorCode> extends AgentPlatformError {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: C,
    message: string,
    readonly requestId: string | undefined,
    readonly details: ApiErrorDetails<C>,
    readonly headers: Headers,
  ) {
    super(message);
  }
}

/** 400: the body, query or path violates the schema (`details.issues` names each field). */
export class BadRequestError extends ApiError {
  override name = "BadRequestError";
}
/** 401: missing, unknown or revoked API key. */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}
/** 403: the key may not do this (admin routes), a budget is exhausted, or a signature is invalid. */
export class PermissionDeniedError extends ApiError {
  override name = "PermissionDeniedError";
}
/** 404: missing, or another project's (never 403 for foreign resources). */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
/** 409: version conflicts, archived resources, busy sessions, idempotency conflicts. */
export class ConflictError extends ApiError {
  override name = "ConflictError";
}
/** 413: the request body is too large. */
export class PayloadTooLargeError extends ApiError {
  override name = "PayloadTooLargeError";
}
/** 422: the request is well-formed but refers to something unusable (an unknown model, vault, environment…). */
export class UnprocessableEntityError extends ApiError {
  override name = "UnprocessableEntityError";
}
/** 429: rate limited; `headers.get("retry-after")` says when to try again (the SDK retries on its own first). */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
}
/** 5xx. */
export class InternalServerError extends ApiError {
  override name = "InternalServerError";
}
/** 503: the server is shutting down, overloaded or cannot reach its database. */
export class ServiceUnavailableError extends InternalServerError {
  override name = "ServiceUnavailableError";
}

/** The request got no HTTP answer (refused, reset, DNS failure). */
export class ConnectionError extends AgentPlatformError {
  override name = "ConnectionError";
}

/** An attempt outlived the client's `timeout` (and no retry was left). */
export class TimeoutError extends AgentPlatformError {
  override name = "TimeoutError";
}

type ApiErrorClass = new (
  status: number,
  code: ApiErrorCode,
  message: string,
  requestId: string | undefined,
  details: ApiErrorDetails<ApiErrorCode>,
  headers: Headers,
) => ApiError;

const BY_STATUS: Record<number, ApiErrorClass> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

function errorClassOf(status: number): ApiErrorClass {
  return BY_STATUS[status] ?? (status >= 500 ? InternalServerError : ApiError);
}

/** The error of a non-2xx response: its envelope when the body is one, else the status alone. */
export function apiErrorFromBody(status: number, body: unknown, headers: Headers): ApiError {
  const requestId = headers.get("x-request-id") ?? undefined;
  const envelope = (body as { error?: { code?: unknown; message?: unknown; requestId?: unknown; details?: unknown } })
    ?.error;
  const ErrorClass = errorClassOf(status);
  if (envelope && typeof envelope.code === "string") {
    return new ErrorClass(
      status,
      envelope.code,
      typeof envelope.message === "string" ? envelope.message : envelope.code,
      typeof envelope.requestId === "string" ? envelope.requestId : requestId,
      envelope.details as ApiErrorDetails<ApiErrorCode>,
      headers,
    );
  }
  return new ErrorClass(status, `http.${status}`, `HTTP ${status}`, requestId, undefined, headers);
}

export async function apiErrorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return apiErrorFromBody(response.status, body, response.headers);
}

/**
 * Whether `error` is an `ApiError`, with that code when one is given; narrows `code` and `details`:
 * `if (isApiError(e, "budget.exceeded")) e.details.limit`.
 */
export function isApiError<C extends ApiErrorCode = ApiErrorCode>(error: unknown, code?: C): error is ApiError<C> {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
