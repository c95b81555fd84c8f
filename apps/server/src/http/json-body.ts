import { LIMITS } from "@agent-platform/contract";
import express, { type RequestHandler } from "express";
import { AppError } from "./app-error.js";
import { nulInBody, refuseDeepJson } from "./input-guards.js";

const parseJson = express.json({ limit: LIMITS.requestBodyBytes, strict: false, verify: refuseDeepJson });

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
  parseJson(req, res, (error?: unknown) => next(error ?? nulInBody(req)));
};

/** Line and column (1-based) of a character offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf("\n");
  return { line: before.split("\n").length, column: offset - lastBreak };
}

/**
 * Where `JSON.parse` stopped, as a readable sentence: V8 names the position in most messages ("… in JSON at position
 * 7"), says "Unexpected end of JSON input" when the body stops early, and quotes the text around the offending token
 * otherwise (kept as it is).
 */
export function describeJsonParseFailure(body: string, parserMessage: string): string {
  const position = /at position (\d+)/.exec(parserMessage);
  const offset = position ? Number(position[1]) : /Unexpected end of JSON input/.test(parserMessage) ? body.length : -1;
  if (offset < 0) return `The request body is not valid JSON: ${parserMessage}`;
  const { line, column } = lineAndColumn(body, offset);
  const what = position ? parserMessage.replace(/ in JSON at position \d+.*$/, "") : "Unexpected end of input";
  return `The request body is not valid JSON: ${what} at line ${line}, column ${column} (character ${offset})`;
}

/** A body that does not parse: 400 `request.invalid` with one issue at the empty path (the body as a whole). */
export function malformedJson(body: unknown, parserMessage: string): AppError {
  const message = describeJsonParseFailure(typeof body === "string" ? body : "", parserMessage);
  return new AppError("request.invalid", message, { issues: [{ path: "", message }] });
}
