import type { ErrorCode } from "@agent-platform/contract";

/**
 * An error code of the contract, or one a newer server added (`http.<status>` when the body was no envelope): compare
 * against the contract's codes and keep a default branch.
 */
export type ApiErrorCode = ErrorCode | (string & {});

/** A non-2xx answer of the API, carrying the error envelope's fields. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly requestId: string | undefined,
    readonly details: Record<string, unknown> | undefined,
  ) {
    super(message);
    this.name = "ApiError";
  }

  static fromResponse(status: number, body: unknown, headerRequestId: string | null): ApiError {
    const error = (body as { error?: { code?: unknown; message?: unknown; requestId?: unknown; details?: unknown } })
      ?.error;
    if (error && typeof error.code === "string") {
      return new ApiError(
        status,
        error.code,
        typeof error.message === "string" ? error.message : error.code,
        typeof error.requestId === "string" ? error.requestId : (headerRequestId ?? undefined),
        error.details as Record<string, unknown> | undefined,
      );
    }
    return new ApiError(status, `http.${status}`, `HTTP ${status}`, headerRequestId ?? undefined, undefined);
  }
}

/** Whether `error` is an `ApiError`, with that code when one is given (narrows `code`). */
export function isApiError<C extends ApiErrorCode>(error: unknown, code?: C): error is ApiError & { code: C } {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** The request never got an HTTP answer (connection refused, reset, timeout). */
export class ConnectionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConnectionError";
  }
}

/** The error of a non-2xx response: its envelope when the body is one, else the status alone. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return ApiError.fromResponse(response.status, body, response.headers.get("x-request-id"));
}
