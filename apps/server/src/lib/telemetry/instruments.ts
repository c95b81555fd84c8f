import {
  type Attributes,
  context,
  metrics,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

// Spans and measurements through the OpenTelemetry API. Without a registered SDK (no OTEL_EXPORTER_OTLP_ENDPOINT, no
// PROMETHEUS_METRICS) every call lands on the API's no-op implementations: nothing is recorded or kept.

const NAME = "agent-platform";

/** Runs `fn` in a span (the active one for everything it awaits); errors mark the span and are rethrown. */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return trace.getTracer(NAME).startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The trace and span ids of the active span, for log lines (empty when nothing is traced). */
export function activeTraceIds(): { traceId?: string; spanId?: string } {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !trace.isSpanContextValid(context)) return {};
  return { traceId: context.traceId, spanId: context.spanId };
}

/**
 * The W3C `traceparent` of the active span, to store with work done later elsewhere (a job); null when nothing is
 * traced (telemetry off: the API's no-op propagator injects nothing).
 */
export function activeTraceparent(): string | null {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Runs `fn` as a continuation of the trace `traceparent` names, or of no trace at all when it is null. */
export function inTraceOf<T>(traceparent: string | null, fn: () => T): T {
  const parent = traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
  return context.with(parent, fn);
}

function createInstruments() {
  const meter = metrics.getMeter(NAME);
  return {
    httpDuration: meter.createHistogram("http.server.request.duration", {
      description: "Duration of HTTP requests, by method, route and status",
      unit: "s",
    }),
    turnDuration: meter.createHistogram("agent_platform.turn.duration", {
      description: "Duration of a worker's pass over a session (a turn, or its part after a pause)",
      unit: "s",
    }),
    modelDuration: meter.createHistogram("gen_ai.client.operation.duration", {
      description: "Duration of model calls, by model and outcome",
      unit: "s",
    }),
    modelTokens: meter.createCounter("gen_ai.client.token.usage", {
      description: "Tokens used by model calls, by model and token type (input, output)",
      unit: "{token}",
    }),
    listenerReconnects: meter.createCounter("agent_platform.listener.reconnects", {
      description: "Reconnections of the process's notification listener (each one after a lost database connection)",
      unit: "{reconnect}",
    }),
    runnerResyncs: meter.createCounter("agent_platform.jobs.resyncs", {
      description: "Times the job runner claimed work again after its statements had failed (database unreachable)",
      unit: "{resync}",
    }),
    toolDuration: meter.createHistogram("agent_platform.tool.duration", {
      description: "Duration of tool calls, by tool and outcome",
      unit: "s",
    }),
    streamReads: meter.createCounter("agent_platform.session_stream.reads", {
      description:
        "Reads of new entries for SSE followers, by source: recent (this process's commit), database (one per notified batch and process), catch_up (a follower behind the others)",
      unit: "{read}",
    }),
    guardrailDecisions: meter.createCounter("agent_platform.guardrail.decisions", {
      description: "Guardrails that triggered, by stage, check and action",
      unit: "{decision}",
    }),
  };
}

let instruments: ReturnType<typeof createInstruments> | undefined;

/**
 * The process's instruments, created on first use: telemetry starts before anything is measured, and instruments made
 * before an SDK is registered would stay no-ops.
 */
export function measure(): ReturnType<typeof createInstruments> {
  instruments ??= createInstruments();
  return instruments;
}
