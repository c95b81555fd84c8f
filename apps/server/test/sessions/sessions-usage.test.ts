import { AgentPlatform } from "@agent-platform/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, expectInvalid } from "../support/expect-error.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent } from "./helpers.js";

let t: TestApp;
let platform: AgentPlatform;

beforeAll(async () => {
  t = await startTestApp({ role: "all" });
  platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key });
});
afterAll(async () => {
  await t?.close();
});

async function turn(agent: string, text: string) {
  const session = await platform.sessions.create({
    agent,
    events: [{ type: "user.message", content: [{ type: "text", text }] }],
  });
  await platform.sessions.waitForIdle(session.id, { afterSeq: 0, timeout: 20_000 });
  return session.id;
}

async function usageEntries(sessionId: string) {
  const page = await platform.sessions.listEvents(sessionId, { afterSeq: 0, limit: 1000 });
  return page.data.filter((e) => e.type === "agent.usage");
}

describe("GET /v1/projects/:projectId/usage", () => {
  it("sums the model calls of the project's sessions by day, agent and model; older entries fall out of the window", async () => {
    const a = (await createAgent(t, t.tenant, { name: "A" })).id;
    const b = (await createAgent(t, t.tenant, { name: "B" })).id;
    const sessions = [await turn(a, "hello"), await turn(a, "hello again, longer"), await turn(b, "hi")];
    const usage = await t.http.get(`${t.tenant.base}/usage`).set(t.tenant.auth);
    expect(usage.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(usage.body.to).toBe(today);
    expect(usage.body.from).toBe(new Date(Date.now() - 13 * 86_400_000).toISOString().slice(0, 10));
    const entries = await Promise.all(sessions.map(usageEntries));
    const sum = (list: (typeof entries)[number], key: "inputTokens" | "outputTokens") =>
      list.reduce((n, e) => n + (e as { inputTokens: number; outputTokens: number })[key], 0);
    const ofA = [...entries[0]!, ...entries[1]!];
    expect(usage.body.data).toEqual(
      [
        {
          date: today,
          agentId: a,
          model: "builtin/echo",
          calls: ofA.length,
          inputTokens: sum(ofA, "inputTokens"),
          outputTokens: sum(ofA, "outputTokens"),
          costUsd: 0,
          unpricedCalls: 0,
        },
        {
          date: today,
          agentId: b,
          model: "builtin/echo",
          calls: entries[2]!.length,
          inputTokens: sum(entries[2]!, "inputTokens"),
          outputTokens: sum(entries[2]!, "outputTokens"),
          costUsd: 0,
          unpricedCalls: 0,
        },
      ].sort((x, y) => (x.agentId < y.agentId ? -1 : 1)),
    );

    // Entries written before the window are not counted.
    await t.platform.ctx.db.pool.query(
      `UPDATE session_events SET "createdAt" = now() - interval '3 days' WHERE "sessionId" = $1`,
      [sessions[2]],
    );
    const twoDays = await t.http.get(`${t.tenant.base}/usage?days=2`).set(t.tenant.auth);
    expect(twoDays.body.data.map((r: { agentId: string }) => r.agentId)).toEqual([a]);
    const week = await t.http.get(`${t.tenant.base}/usage?days=7`).set(t.tenant.auth);
    expect(week.body.data.map((r: { agentId: string; date: string }) => [r.agentId, r.date])).toEqual(
      expect.arrayContaining([
        [a, today],
        [b, new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10)],
      ]),
    );
  });

  it("validates days, and answers another project's key with 404", async () => {
    expectInvalid(await t.http.get(`${t.tenant.base}/usage?days=0`).set(t.tenant.auth), ["query.days"]);
    expectInvalid(await t.http.get(`${t.tenant.base}/usage?days=91`).set(t.tenant.auth), ["query.days"]);
    const other = await t.newTenant();
    expectError(await t.http.get(`${t.tenant.base}/usage`).set(other.auth), 404, "project.not_found");
    const theirs = await t.http.get(`${other.base}/usage`).set(other.auth);
    expect(theirs.body.data).toEqual([]);
  });
});
