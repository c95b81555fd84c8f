import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// A real OTLP/HTTP receiver on loopback (JSON, as the HTTP exporters send it) collects what the platform exports.
interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

let receiver: Server;
interface OtlpBody {
  resourceSpans?: { scopeSpans: { spans: OtlpSpan[] }[] }[];
  resourceMetrics?: { scopeMetrics: { metrics: { name: string }[] }[] }[];
}
const received: { path: string; body: OtlpBody }[] = [];
let fake: FakeOpenAI;
let t: TestApp;
const logLines: string[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  fake = await startFakeOpenAI();
  fake.respondWith((request) =>
    request.body.messages.at(-1)?.role === "tool"
      ? { text: "Saved." }
      : { toolCalls: [{ name: "artifact_write", arguments: { name: "a.md", content: "x" } }] },
  );
  t = await startTestApp({
    role: "all",
    logLines,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      OTEL_METRIC_EXPORT_INTERVAL: "500",
      PROMETHEUS_METRICS: "true",
      OPENAI_COMPATIBLE_BASE_URL: fake.url,
      LOG_LEVEL: "info",
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

describe("telemetry", () => {
  it("exports request, turn, model and tool spans and metrics over OTLP, serves /metrics, and logs trace ids", async () => {
    const agent = await createAgent(t, t.tenant, { model: "openai-compatible/fake-model", tools: ["artifact_write"] });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("save a note")] });
    await waitForIdle(t, t.tenant, session.id);
    const followUp = await t.http
      .post(`/v1/projects/${t.tenant.projectId}/sessions/${session.id}/events`)
      .set(t.tenant.auth)
      .send({ events: [message("and another")] });
    expect(followUp.status).toBe(202);
    await waitForIdle(t, t.tenant, session.id);

    const scrape = await t.http.get("/metrics");
    expect(scrape.status).toBe(200);
    expect(scrape.text).toMatch(/^http_server_request_duration_count\{/m);
    expect(scrape.text).toMatch(/^gen_ai_client_token_usage/m);
    expect(scrape.text).toMatch(/^db_client_connection_count/m);
    expect(scrape.text).toMatch(/^agent_platform_jobs_queued/m);

    await t.platform.close(); // flushes
    const spans: OtlpSpan[] = received
      .filter((r) => r.path === "/v1/traces")
      .flatMap((r) => (r.body.resourceSpans ?? []).flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
    const named = (name: string) => spans.filter((s) => s.name === name);
    const create = named("POST /v1/projects/:projectId/sessions")[0]!;
    expect(attr(create, "http.response.status_code")).toBe(201);
    expect(String(attr(create, "agent_platform.request_id"))).toMatch(/^req_/);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const turns = named("session.turn").filter((s) => attr(s, "session.id") === session.id);
    expect(turns).toHaveLength(2);
    // Each turn continues the trace of the request that asked for it: request → job.run → session.turn.
    const [a, b] = turns.map((s) => {
      const run = byId.get(s.parentSpanId ?? "")!;
      expect(run.name).toBe("job.run");
      expect(attr(run, "agent_platform.job.kind")).toBe("session.turn");
      return { turn: s, requestSpanId: run.parentSpanId };
    }) as [{ turn: OtlpSpan; requestSpanId?: string }, { turn: OtlpSpan; requestSpanId?: string }];
    const ingest = named("POST /v1/projects/:projectId/sessions/:id/events")[0]!;
    const [fromCreate, fromIngest] = a.requestSpanId === create.spanId ? [a, b] : [b, a];
    expect(fromCreate.requestSpanId).toBe(create.spanId);
    expect(fromCreate.turn.traceId).toBe(create.traceId);
    expect(fromIngest.requestSpanId).toBe(ingest.spanId);
    expect(fromIngest.turn.traceId).toBe(ingest.traceId);
    expect(ingest.traceId).not.toBe(create.traceId);
    const turn = fromCreate.turn;
    const models = named("model.call").filter((s) => s.parentSpanId === turn.spanId);
    expect(models).toHaveLength(2);
    expect(attr(models[0]!, "gen_ai.request.model")).toBe("openai-compatible/fake-model");
    const tool = named("tool.call").find((s) => s.parentSpanId === turn.spanId)!;
    expect(attr(tool, "agent_platform.tool.name")).toBe("artifact_write");

    const metricNames = new Set(
      received
        .filter((r) => r.path === "/v1/metrics")
        .flatMap((r) => r.body.resourceMetrics ?? [])
        .flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics.map((m) => m.name))),
    );
    for (const name of [
      "http.server.request.duration",
      "agent_platform.turn.duration",
      "gen_ai.client.operation.duration",
      "gen_ai.client.token.usage",
      "agent_platform.tool.duration",
      "db.client.connection.count",
      "agent_platform.jobs.queued",
    ]) {
      expect(metricNames).toContain(name);
    }

    const traceIds = new Set(spans.map((s) => s.traceId));
    const traced = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.traceId);
    expect(traced.length).toBeGreaterThan(0);
    expect(traced.every((entry) => traceIds.has(entry.traceId))).toBe(true);
  });
});
