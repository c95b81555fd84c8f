import { LIMITS } from "@agent-platform/contract";
import express, { type RequestHandler } from "express";
import { AppError } from "./app-error.js";

const parseJson = express.json({ limit: LIMITS.requestBodyBytes, strict: false });

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers["content-length"];
  return headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** Bodies are JSON: another declared media type is a 415, a body that does not parse a 400, a large one a 413. */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (hasBody(req.headers) && !req.is("application/json") && !req.is("application/*+json")) {
    next(
      new AppError("request.unsupported_media_type", "Request bodies must be JSON (Content-Type: application/json)"),
    );
    return;
  }
  parseJson(req, res, next);
};
