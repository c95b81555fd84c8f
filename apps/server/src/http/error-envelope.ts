import type { ErrorEnvelope, ValidationIssue } from "@agent-platform/contract";
import type { ErrorRequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { ZodError } from "zod";
import { isDatabaseUnavailable, isPoolExhausted } from "../lib/database-unavailable.js";
import { AppError } from "./app-error.js";
import { malformedJson } from "./json-body.js";

export function sendError(res: Response, requestId: string, error: AppError): void {
  const body: ErrorEnvelope = {
    error: {
      code: error.code,
      message: error.message,
      requestId,
      ...(error.details ? { details: error.details } : {}),
    },
  };
  res.status(error.status).json(body);
}

export function zodIssues(error: ZodError, prefix: string): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: [prefix, ...issue.path].filter((p) => p !== "").join("."),
    message: issue.message,
  }));
}

export function invalidRequest(issues: ValidationIssue[]): AppError {
  const summary = issues
    .slice(0, 3)
    .map((i) => `${i.path}: ${i.message}`)
    .join("; ");
  return new AppError("request.invalid", `Invalid request: ${summary}${issues.length > 3 ? "; …" : ""}`, { issues });
}

interface BodyParserError extends Error {
  type?: string;
  body?: unknown;
  status?: number;
}

/** What a 503 for an unreachable database asks clients to wait before retrying. */
const DATABASE_RETRY_AFTER_S = 2;

/** Translates anything thrown into the envelope. Unknown errors are logged and become a generic 500. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const requestId = req.requestId;
    if (res.headersSent) {
      logger.error({ err, requestId }, "error after response started");
      res.end();
      return;
    }
    if (err instanceof AppError) {
      sendError(res, requestId, err);
      return;
    }
    if (err instanceof URIError) {
      sendError(res, requestId, new AppError("request.invalid", "The request path has a malformed percent-escape"));
      return;
    }
    const parserError = err as BodyParserError;
    if (parserError.type === "entity.parse.failed") {
      sendError(res, requestId, malformedJson(parserError.body, parserError.message));
      return;
    }
    if (parserError.type === "entity.too.large") {
      sendError(res, requestId, new AppError("request.too_large", "The request body is too large"));
      return;
    }
    if (parserError.type === "charset.unsupported" || parserError.type === "encoding.unsupported") {
      sendError(res, requestId, new AppError("request.unsupported_media_type", parserError.message));
      return;
    }
    if (isDatabaseUnavailable(err)) {
      // Every pooled connection busy for DATABASE_CONNECT_TIMEOUT_MS is overload, not an outage: said apart for the
      // operator (raise DATABASE_POOL_MAX or add processes) and the client (the same retry works).
      const busy = isPoolExhausted(err);
      logger.warn(
        { err: String(err), requestId, method: req.method, url: req.originalUrl },
        busy ? "database pool exhausted" : "database unavailable",
      );
      res.setHeader("Retry-After", String(DATABASE_RETRY_AFTER_S));
      const message = busy
        ? "The server is busy: no database connection was free in time; retry in a few seconds (see Retry-After)"
        : "The database is unavailable; retry in a few seconds (see Retry-After)";
      sendError(res, requestId, new AppError("service.unavailable", message));
      return;
    }
    logger.error({ err, requestId, method: req.method, url: req.originalUrl }, "unhandled error");
    sendError(res, requestId, new AppError("internal.error", "Internal server error"));
  };
}
