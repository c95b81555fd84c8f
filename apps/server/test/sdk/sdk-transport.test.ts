import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ConnectionError, createClient, isApiError } from "@agent-platform/sdk";
import { afterEach, describe, expect, it } from "vitest";

// The SDK's transport rules (timeouts, which failures are retried) against a scripted HTTP server on loopback that
// answers each request from a list: a hung server or a busy idempotency key cannot be produced on demand otherwise.
type Answer = "hang" | { status: number; body: unknown; headers?: Record<string, string> };

interface Scripted {
  url: string;
  seen: { method: string; idempotencyKey: string | undefined }[];
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function scripted(answers: Answer[]): Promise<Scripted> {
  const seen: Scripted["seen"] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? "", idempotencyKey: req.headers["idempotency-key"] as string | undefined });
    req.resume();
    const answer = answers.shift() ?? { status: 500, body: {} };
    if (answer === "hang") return;
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const envelope = (code: string) => ({ error: { code, message: code, requestId: "req_1" } });
const context = { project: { id: "proj_1" }, workspace: { id: "ws_1", name: "w" }, apiKey: { id: "key_1" } };

describe("SDK transport", () => {
  it("abandons an attempt that outlives the timeout, retries it, then fails with a ConnectionError", async () => {
    const s = await scripted(["hang", "hang"]);
    const client = createClient({ baseUrl: s.url, apiKey: "k", timeout: 150, retry: { retries: 1, baseDelayMs: 1 } });
    const error = await client.platform.context().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/timed out after 150 ms/);
    expect(s.seen).toHaveLength(2);
  });

  it("a per-request timeout and retry count override the client's", async () => {
    const s = await scripted(["hang", { status: 200, body: context }]);
    const client = createClient({ baseUrl: s.url, apiKey: "k", retry: { retries: 0 }, validateResponses: false });
    const body = await client.platform.context({ timeout: 100, maxRetries: 1 });
    expect(body).toEqual(context);
    expect(s.seen).toHaveLength(2);
  });

  it("retries 409 idempotency.in_progress and 500 with the same idempotency key", async () => {
    const agent = { id: "agent_1", version: 1 };
    const s = await scripted([
      { status: 409, body: envelope("idempotency.in_progress"), headers: { "retry-after": "0" } },
      { status: 500, body: envelope("internal.error") },
      { status: 201, body: agent },
    ]);
    const client = createClient({ baseUrl: s.url, apiKey: "k", retry: { baseDelayMs: 1 }, validateResponses: false });
    const created = await client.agents.create({
      params: { projectId: "proj_1" },
      body: { name: "a", model: "builtin/echo" },
    });
    expect(created).toEqual(agent);
    expect(s.seen.map((r) => r.method)).toEqual(["POST", "POST", "POST"]);
    expect(new Set(s.seen.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(s.seen[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("never repeats a mutation without an idempotency key, nor a 409 conflict", async () => {
    const s = await scripted([{ status: 500, body: envelope("internal.error") }]);
    const client = createClient({ baseUrl: s.url, apiKey: "k", autoIdempotencyKeys: false, retry: { baseDelayMs: 1 } });
    const error = await client.agents
      .create({ params: { projectId: "proj_1" }, body: { name: "a", model: "builtin/echo" } })
      .catch((e: unknown) => e);
    expect(isApiError(error, "internal.error")).toBe(true);
    expect(s.seen).toHaveLength(1);

    const conflict = await scripted([{ status: 409, body: envelope("agent.version_conflict") }]);
    const other = createClient({ baseUrl: conflict.url, apiKey: "k", retry: { baseDelayMs: 1 } });
    const refused = await other.agents
      .update({ params: { projectId: "proj_1", id: "agent_1" }, body: { version: 1, name: "b" } })
      .catch((e: unknown) => e);
    expect(isApiError(refused, "agent.version_conflict")).toBe(true);
    expect(isApiError(refused, "agent.not_found")).toBe(false);
    expect(conflict.seen).toHaveLength(1);
  });
});
