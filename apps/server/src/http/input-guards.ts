import type { RequestHandler } from "express";
import { AppError } from "./app-error.js";

/*
 * Input every route refuses before it is parsed or routed: bodies nested too deep, and the NUL character (PostgreSQL
 * cannot store it in text; it would otherwise surface as a 500 from the database).
 */

/**
 * Deepest nesting a request body may have. Everything after parsing (validation, canonical JSON, hashing for
 * idempotency, JSONB) walks bodies recursively; a body nested thousands of levels deep would exhaust the stack there,
 * so it is refused before it is parsed. No shape of the API comes close (JSON Schemas of tool inputs included).
 */
export const MAX_JSON_DEPTH = 64;

const NUL_ESCAPE = [0x75, 0x30, 0x30, 0x30, 0x30]; // "u0000" after a backslash

/**
 * How deep `[` / `{` nest in UTF-8 JSON bytes, strings skipped; stops counting past `limit`. One pass over the bytes, no
 * recursion, no decoding (bytes of multi-byte characters are never ASCII).
 */
export function jsonDepth(bytes: Uint8Array, limit = MAX_JSON_DEPTH): number {
  return scanJson(bytes, limit).depth;
}

/** Nesting depth and whether a string holds `\u0000`, in one pass. */
function scanJson(bytes: Uint8Array, limit: number): { depth: number; nul: boolean } {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let nul = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (c === 0x5c) {
        // backslash: look at the escape, then skip the escaped character
        if (!nul && NUL_ESCAPE.every((b, k) => bytes[i + 1 + k] === b)) nul = true;
        i++;
      } else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return { depth: deepest, nul };
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return { depth: deepest, nul };
}

/** `verify` hook of the JSON parser: a body nested deeper than MAX_JSON_DEPTH is a 400 before it is parsed. */
export function refuseDeepJson(req: object, _res: unknown, buffer: Buffer): void {
  const scan = scanJson(buffer, MAX_JSON_DEPTH);
  if (scan.depth > MAX_JSON_DEPTH) {
    const message = `The request body nests deeper than ${MAX_JSON_DEPTH} levels`;
    throw new AppError("request.invalid", message, { issues: [{ path: "body", message }] });
  }
  (req as { hasNul?: boolean }).hasNul = scan.nul;
}

/** The path (`body.files.1.content`) of the first string or key holding NUL; the body is at most 64 levels deep. */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}.${i}`);
      if (found) return found;
    }
  } else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key.includes("\u0000")) return `${path}.${key.replaceAll("\u0000", "\\u0000")}`;
      const found = nulPath(child, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** After parsing: a string holding NUL (seen by the scan) is a 400 naming its field. */
export function nulInBody(req: { body?: unknown }): AppError | undefined {
  if (!(req as { hasNul?: boolean }).hasNul) return undefined;
  const path = nulPath(req.body, "body") ?? "body";
  const message = "Strings cannot contain the NUL character (\\u0000)";
  return new AppError("request.invalid", `Invalid request: ${path}: ${message}`, { issues: [{ path, message }] });
}

/** A NUL character in the path or the query (`%00`) is a 400: no id or filter can hold one. */
export const refuseNulInUrl: RequestHandler = (req, _res, next) => {
  if (/%00/i.test(req.originalUrl)) {
    const message = "The request URL cannot contain the NUL character (%00)";
    next(new AppError("request.invalid", message, { issues: [{ path: "url", message }] }));
    return;
  }
  next();
};
