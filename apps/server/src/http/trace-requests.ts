import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Request, RequestHandler } from "express";
import { measure } from "../lib/telemetry/instruments.js";

/** The route's pattern (`/v1/projects/:projectId/agents`), never the raw path: ids would make every series unique. */
function routeOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === "string" ? `${req.baseUrl}${path}` : "unmatched";
}

/**
 * A server span per request (continuing the caller's `traceparent` when it sends one) with the request id, the route
 * and the status, and the request duration histogram. Installed only when telemetry is on.
 */
export function traceRequests(): RequestHandler {
  const tracer = trace.getTracer("agent-platform");
  return (req, res, next) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      req.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "http.request.method": req.method,
          "url.path": req.path,
          "agent_platform.request_id": req.requestId,
        },
      },
      parent,
    );
    const started = performance.now();
    res.once("finish", () => {
      const route = routeOf(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ "http.route": route, "http.response.status_code": res.statusCode });
      if (req.auth) span.setAttribute("agent_platform.project_id", req.auth.projectId);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      measure().httpDuration.record((performance.now() - started) / 1000, {
        "http.request.method": req.method,
        "http.route": route,
        "http.response.status_code": res.statusCode,
      });
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
