import { AsyncResource } from "node:async_hooks";
import { LIMITS } from "@agent-platform/contract";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { AppError } from "./app-error.js";
import { nulInBody, refuseDeepJson } from "./input-guards.js";

const parseJson = express.json({ limit: LIMITS.requestBodyBytes, strict: false, verify: refuseDeepJson });

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers["content-length"];
  return headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * The common request (`Content-Type: application/json` exactly, a `Content-Length` within the limit, no
 * `Content-Encoding`) read as `express.json` reads it, for half its CPU (about 0.1 ms a request on the bench VM: its
 * media-type and charset parsing, decoder and stream plumbing are for the general case). Same outcome: the raw bytes
 * checked by `refuseDeepJson`, a UTF-8 byte order mark skipped, an empty body is `{}`, any JSON value accepted, and a
 * body that does not parse or a request aborted is the error `express.json` would give. Anything else goes to
 * `express.json`; `test/http/json-body.test.ts` sends every kind of body both ways and compares the answers.
 */
function isPlainJson(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers["content-length"];
  return (
    headers["content-type"] === "application/json" &&
    typeof length === "string" &&
    headers["content-encoding"] === undefined &&
    headers["transfer-encoding"] === undefined &&
    Number(length) <= LIMITS.requestBodyBytes
  );
}

const parserFailure = (error: Error, fields: Record<string, unknown>) =>
  Object.assign(error, { status: 400, ...fields });

function readPlainJson(req: Request, res: Response, next: NextFunction): void {
  const chunks: Buffer[] = [];
  let settled = false;
  const settle = (error?: unknown) => {
    if (settled) return;
    settled = true;
    next(error);
  };
  // What the route does next runs in the request's async context (its trace), not in the socket's, as raw-body binds
  // its callback. One resource entered explicitly: `AsyncResource.bind` also defines a deprecated accessor pair on
  // every function it binds (DEP0172), which was ~1 % of agent creation's CPU for two binds a request.
  const scope = new AsyncResource("JSON_BODY");
  const fail = () =>
    scope.runInAsyncScope(settle, undefined, parserFailure(new Error("request aborted"), { type: "request.aborted" }));
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.once("aborted", fail);
  req.once("error", fail);
  req.once("end", () => scope.runInAsyncScope(finish));
  function finish() {
    const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    let text = "";
    try {
      refuseDeepJson(req, res, raw);
      text = raw.toString("utf8");
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      req.body = text.length === 0 ? {} : JSON.parse(text);
    } catch (error) {
      settle(error instanceof SyntaxError ? parserFailure(error, { type: "entity.parse.failed", body: text }) : error);
      return;
    }
    settle(nulInBody(req));
  }
}

/** Bodies are JSON: another declared media type is a 415, a body that does not parse a 400, a large one a 413. */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (isPlainJson(req.headers)) {
    readPlainJson(req, res, next);
    return;
  }
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
