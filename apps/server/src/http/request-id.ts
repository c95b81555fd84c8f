import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { newId } from "../ids.js";

/** Gives every request a `req_` id (X-Request-Id header) and writes one structured log line when it finishes. */
export function requestIdAndLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = newId("request");
    req.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? "error" : "info";
      logger[level](
        {
          requestId,
          method: req.method,
          path: req.originalUrl.split("?")[0],
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
