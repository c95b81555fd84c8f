import type { ValidationIssue } from "@agent-platform/contract";
import type { RequestValidationError } from "@ts-rest/express";
import type { NextFunction, Request, Response } from "express";
import { invalidRequest, zodIssues } from "./error-envelope.js";

/** ts-rest's schema failures become one 400 `request.invalid` listing every issue with its field path. */
export function requestValidationErrorHandler(
  err: RequestValidationError,
  _req: Request,
  _res: Response,
  next: NextFunction,
) {
  const issues: ValidationIssue[] = [
    ...(err.pathParams ? zodIssues(err.pathParams, "params") : []),
    ...(err.headers ? zodIssues(err.headers, "headers") : []),
    ...(err.query ? zodIssues(err.query, "query") : []),
    ...(err.body ? zodIssues(err.body, "body") : []),
  ];
  next(invalidRequest(issues));
}
