import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, expectError, expectInvalid, message, updateAgent } from "../sessions/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// The agent's `guardrails` field: validated on write, versioned with the agent, replaced per session.
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ role: "all" });
});
afterAll(async () => {
  await t?.close();
});

const cards = { stage: "input", check: { type: "pii", kinds: ["card_number"] }, action: "redact" };
const post = (body: Record<string, unknown>) =>
  t.http
    .post(`${t.tenant.base}/agents`)
    .set(t.tenant.auth)
    .send({ name: "a", model: "builtin/echo", ...body });

describe("the guardrails field", () => {
  it("is stored and read back with the version; absent means none", async () => {
    const res = await post({ guardrails: [cards] });
    expect(res.status).toBe(201);
    expect(res.body.guardrails).toEqual([cards]);
    const plain = await post({});
    expect(plain.body.guardrails).toBeUndefined();
    const cleared = await updateAgent(t, t.tenant, res.body.id, 1, { guardrails: [] });
    expect(cleared.version).toBe(2);
    const read = await t.http.get(`${t.tenant.base}/agents/${res.body.id}?version=1`).set(t.tenant.auth);
    expect(read.body.guardrails).toEqual([cards]);
  });

  it("refuses what cannot work, at the field's path", async () => {
    expectInvalid(await post({ guardrails: [{ stage: "input", check: { type: "moderation" }, action: "redact" }] }), [
      "body.guardrails.0.action",
    ]);
    expectInvalid(await post({ guardrails: [{ ...cards, stage: "output", keepOriginal: true }] }), [
      "body.guardrails.0.keepOriginal",
    ]);
    expectInvalid(await post({ guardrails: [cards, cards] }), ["body.guardrails.1.name"]);
    expectInvalid(
      await post({
        guardrails: [{ ...cards, check: { type: "pii", patterns: [{ name: "ref", pattern: "(a)\\1" }] } }],
      }),
      ["body.guardrails.0.check.patterns.0.pattern"],
    );
    expectInvalid(await post({ guardrails: [{ ...cards, check: { type: "language", allow: ["en"] } }] }), [
      "body.guardrails.0.check.allow.0",
    ]);
  });

  it("refuses a model-backed check whose provider is not configured (422 agent.invalid_model)", async () => {
    const moderation = await post({ guardrails: [{ stage: "input", check: { type: "moderation" }, action: "block" }] });
    expectError(moderation, 422, "agent.invalid_model");
    expect(moderation.body.error.message).toContain("OPENAI_API_KEY");
    const judge = await post({
      guardrails: [
        {
          stage: "output",
          check: { type: "llm_judge", rubric: "polite", model: "anthropic/claude-x" },
          action: "flag",
        },
      ],
    });
    expectError(judge, 422, "agent.invalid_model");
    const session = await t.http
      .post(`${t.tenant.base}/sessions`)
      .set(t.tenant.auth)
      .send({
        agent: (await createAgent(t, t.tenant)).id,
        guardrails: [{ stage: "input", check: { type: "moderation" }, action: "flag" }],
      });
    expectError(session, 422, "agent.invalid_model");
  });
});

describe("versioning", { timeout: 60_000 }, () => {
  it("a session runs the guardrails of its pinned version", async () => {
    const flagEmails = { stage: "input", check: { type: "pii", kinds: ["email"] }, action: "flag" };
    const agent = await createAgent(t, t.tenant, { guardrails: [flagEmails] });
    const v2 = await updateAgent(t, t.tenant, agent.id, 1, { guardrails: [{ ...flagEmails, action: "block" }] });
    const run = async (ref: unknown) => {
      const res = await t.http
        .post(`${t.tenant.base}/sessions`)
        .set(t.tenant.auth)
        .send({ agent: ref, events: [message("mail ann@example.org")] });
      expect(res.status).toBe(201);
      return waitForIdle(t, t.tenant, res.body.id);
    };
    const pinned = await run({ id: agent.id, version: 1 });
    expect(pinned.at(-1).stopReason).toBe("end_turn");
    expect(pinned.find((e) => e.type === "session.guardrail")).toMatchObject({ action: "flag" });
    const current = await run(agent.id);
    expect(v2.version).toBe(2);
    expect(current.at(-1).stopReason).toBe("guardrail_blocked");
    expect(current.some((e) => e.type === "agent.message")).toBe(false);
  });
});
