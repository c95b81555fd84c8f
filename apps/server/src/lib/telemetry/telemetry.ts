import type { IncomingMessage, ServerResponse } from "node:http";
import type pg from "pg";
import { clusterMetrics } from "./cluster-metrics.js";

/** The process's telemetry: started first, shut down (flushed) last. */
export interface Telemetry {
  enabled: boolean;
  /** `GET /metrics` in the Prometheus text format, when `PROMETHEUS_METRICS` is on. */
  prometheus?: (req: IncomingMessage, res: ServerResponse) => void;
  shutdown(): Promise<void>;
}

const DISABLED: Telemetry = { enabled: false, shutdown: async () => {} };
let meter: Meter | undefined;

/** Gauges of a connection pool (idle, used, waiting); no-op with telemetry off. */
export function observePool(pool: pg.Pool): void {
  if (meter) observeConnections(meter, pool);
}

/** Gauges of the job queue for the kinds a worker process runs (0 when a kind has nothing); no-op with telemetry off. */
export function observeJobQueue(pool: pg.Pool, kinds: readonly string[]): void {
  if (meter) observeJobs(meter, pool, kinds);
}

function truthy(value: string | undefined): boolean {
  return value === "1" || value?.toLowerCase() === "true";
}

/** `<base>/v1/<signal>` unless the signal's own endpoint is set (the OTLP/HTTP convention). */
function endpoint(env: Record<string, string | undefined>, signal: "traces" | "metrics"): string | undefined {
  const own = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`];
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, "")}/v1/${signal}` : undefined;
}

/**
 * Starts OpenTelemetry when asked: traces and metrics over OTLP/HTTP when `OTEL_EXPORTER_OTLP_ENDPOINT` (or a
 * signal's own endpoint) is set, a Prometheus `/metrics` when `PROMETHEUS_METRICS` is on. Otherwise nothing is loaded
 * and the API's no-op implementations make every span and measurement free. The SDK's packages are imported only when
 * used.
 */
export async function startTelemetry(env: Record<string, string | undefined>): Promise<Telemetry> {
  const traces = endpoint(env, "traces");
  const metricsUrl = endpoint(env, "metrics");
  const prometheusOn = truthy(env.PROMETHEUS_METRICS);
  if (truthy(env.OTEL_SDK_DISABLED) || (!traces && !metricsUrl && !prometheusOn)) return DISABLED;

  const [api, hooks, core, resources, tracing, sdkMetrics] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/core"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/sdk-metrics"),
  ]);
  const resource = resources
    .detectResources({ detectors: [resources.envDetector] })
    .merge(resources.resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME ?? "agent-platform" }));
  api.context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());

  const shutdowns: (() => Promise<void>)[] = [];
  if (traces) {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    const provider = new tracing.BasicTracerProvider({
      resource,
      spanProcessors: [new tracing.BatchSpanProcessor(new OTLPTraceExporter({ url: traces }))],
    });
    api.trace.setGlobalTracerProvider(provider);
    shutdowns.push(() => provider.shutdown());
  }
  const readers: InstanceType<typeof sdkMetrics.MetricReader>[] = [];
  if (metricsUrl) {
    const { OTLPMetricExporter } = await import("@opentelemetry/exporter-metrics-otlp-http");
    readers.push(
      new sdkMetrics.PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: metricsUrl }),
        exportIntervalMillis: Number(env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000,
      }),
    );
  }
  let prometheus: Telemetry["prometheus"];
  if (prometheusOn) {
    const { PrometheusExporter } = await import("@opentelemetry/exporter-prometheus");
    const { PrometheusSerializer } = await import("@opentelemetry/exporter-prometheus");
    const exporter = new PrometheusExporter({ preventServerStart: true });
    const serializer = new PrometheusSerializer();
    readers.push(exporter);
    const text = clusterMetrics(async () => serializer.serialize((await exporter.collect()).resourceMetrics));
    prometheus = (_req, res) => {
      text().then(
        (body) => {
          res.statusCode = 200;
          res.setHeader("content-type", "text/plain; version=0.0.4; charset=utf-8");
          res.end(body);
        },
        (error: unknown) => {
          res.statusCode = 500;
          res.setHeader("content-type", "text/plain; charset=utf-8");
          res.end(`# failed to collect metrics: ${error}\n`);
        },
      );
    };
  }
  const meterProvider = new sdkMetrics.MeterProvider({ resource, readers });
  api.metrics.setGlobalMeterProvider(meterProvider);
  shutdowns.push(() => meterProvider.shutdown());
  meter = api.metrics.getMeter("agent-platform");

  return {
    enabled: true,
    prometheus,
    async shutdown() {
      await Promise.all(shutdowns.map((stop) => stop().catch(() => {})));
    },
  };
}

type Meter = ReturnType<typeof import("@opentelemetry/api").metrics.getMeter>;

function observeConnections(meter: Meter, pool: pg.Pool): void {
  meter
    .createObservableGauge("db.client.connection.count", {
      description: "Connections of the pool, by state (idle, used)",
      unit: "{connection}",
    })
    .addCallback((result) => {
      result.observe(pool.idleCount, { "db.client.connection.state": "idle" });
      result.observe(pool.totalCount - pool.idleCount, { "db.client.connection.state": "used" });
    });
  meter
    .createObservableGauge("db.client.connection.pending_requests", {
      description: "Queries waiting for a connection of the pool",
      unit: "{request}",
    })
    .addCallback((result) => result.observe(pool.waitingCount));
}

/** Queue depth and age by job kind, read from the `jobs` table when a reader collects (not on a timer of ours). */
function observeJobs(meter: Meter, pool: pg.Pool, kinds: readonly string[]): void {
  const queued = meter.createObservableGauge("agent_platform.jobs.queued", {
    description: "Jobs due and not running, by kind",
    unit: "{job}",
  });
  const running = meter.createObservableGauge("agent_platform.jobs.running", {
    description: "Jobs under a live lease, by kind",
    unit: "{job}",
  });
  const age = meter.createObservableGauge("agent_platform.jobs.oldest_due_age", {
    description: "How long the oldest due job has waited, by kind",
    unit: "s",
  });
  meter.addBatchObservableCallback(
    async (result) => {
      const { rows } = await pool.query<{ kind: string; queued: number; running: number; age: number | null }>(
        `SELECT "kind",
           count(*) FILTER (WHERE "dueAt" <= now())::int AS "queued",
           count(*) FILTER (WHERE "leaseOwner" IS NOT NULL AND "dueAt" > now())::int AS "running",
           EXTRACT(EPOCH FROM now() - min("dueAt") FILTER (WHERE "dueAt" <= now()))::float8 AS "age"
         FROM jobs GROUP BY "kind"`,
      );
      const byKind = new Map(rows.map((row) => [row.kind, row]));
      for (const kind of new Set([...kinds, ...byKind.keys()])) {
        const row = byKind.get(kind);
        const attributes = { "agent_platform.job.kind": kind };
        result.observe(queued, row?.queued ?? 0, attributes);
        result.observe(running, row?.running ?? 0, attributes);
        result.observe(age, row?.age ?? 0, attributes);
      }
    },
    [queued, running, age],
  );
}
