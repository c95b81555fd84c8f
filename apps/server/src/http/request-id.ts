import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { newId } from "../ids.js";

/** Gives every request a `req_` id (X-Request-Id header) and writes one structured log line when it finishes. */
export function requestIdAndLog(logger: Logger): RequestHandler {
  // The line's fields are fixed and none is a redacted path (headers, secrets, authorization): pino's redaction, which
  // copies and walks every object logged, was two thirds of the line's cost (2 of 3 µs).
  const lines = logger.child({}, { redact: { paths: [] } });
  return (req, res, next) => {
    const requestId = newId("request");
    req.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? "error" : "info";
      const url = req.originalUrl;
      const query = url.indexOf("?");
      lines[level](
        {
          requestId,
          method: req.method,
          path: query < 0 ? url : url.slice(0, query),
          status: res.statusCode,
          ms: Math.round(ms * 100) / 100,
          keyId: req.auth?.keyId,
        },
        "request",
      );
    });
    next();
  };
}
