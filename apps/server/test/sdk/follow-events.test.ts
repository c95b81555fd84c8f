import { createClient, followSessionEvents, newIdempotencyKey } from "@agent-platform/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: "all" });
});
afterAll(async () => {
  await t?.close();
});

describe("SDK session follower", () => {
  it("sends a message and follows the log over SSE until the turn ends", async () => {
    const options = { baseUrl: t.url, apiKey: t.tenant.key };
    const client = createClient(options);
    const projectId = t.tenant.projectId;
    const agent = await client.agents.create({ params: { projectId }, body: { name: "Echo", model: "builtin/echo" } });
    const session = await client.sessions.create({ params: { projectId }, body: { agent: agent.id } });
    const key = newIdempotencyKey();
    const event = {
      type: "user.message" as const,
      idempotencyKey: key,
      content: [{ type: "text" as const, text: "ping" }],
    };
    const ack = await client.sessions.ingestEvents({
      params: { projectId, id: session.id },
      body: { events: [event] },
    });
    const retry = await client.sessions.ingestEvents({
      params: { projectId, id: session.id },
      body: { events: [event] },
    });
    expect(retry.events[0]).toMatchObject({ seq: ack.events[0]!.seq, duplicate: true });

    const seen: { seq: number; type: string; content?: unknown }[] = [];
    for await (const e of followSessionEvents(options, {
      projectId,
      sessionId: session.id,
      until: (e) => e.type === "session.status_idle",
      signal: AbortSignal.timeout(20_000),
    })) {
      seen.push(e as { seq: number; type: string });
    }
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
    expect(seen[0]!.type).toBe("user.message");
    const reply = seen.find((e) => e.type === "agent.message");
    expect(reply?.content).toEqual([{ type: "text", text: "ping" }]);
    expect(seen.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "end_turn" });
  });

  it("refuses to treat the stream route as JSON", async () => {
    const client = createClient({ baseUrl: t.url, apiKey: t.tenant.key });
    const projectId = t.tenant.projectId;
    const agent = await client.agents.create({ params: { projectId }, body: { name: "E", model: "builtin/echo" } });
    const session = await client.sessions.create({ params: { projectId }, body: { agent: agent.id } });
    await expect(client.sessions.streamEvents({ params: { projectId, id: session.id } })).rejects.toThrow(TypeError);
  });
});
