import { ERROR_STATUS, type ErrorCode } from "@agent-platform/contract";

/** The one domain error: a contract error code, a readable message, optional details. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
    this.status = ERROR_STATUS[code];
  }
}

export function notFound(code: ErrorCode & `${string}.not_found`, what: string, id: string): AppError {
  return new AppError(code, `${what} ${id} was not found`);
}
