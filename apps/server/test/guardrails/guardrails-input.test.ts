import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, message } from "../sessions/helpers.js";
import { getSession, type LogEntry, waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, lastUserText, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

// Input guardrails through the API: what the provider is sent (the fake's recorded requests) and what the log keeps.
const CARD = "4111 1111 1111 1111";
const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ role: "all", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const redactCards = (extra: Record<string, unknown> = {}) => ({
  stage: "input",
  check: { type: "pii", kinds: ["card_number"] },
  action: "redact",
  ...extra,
});

async function run(agentId: string, text: string, extra: Record<string, unknown> = {}) {
  const res = await t.http
    .post(`${t.tenant.base}/sessions`)
    .set(t.tenant.auth)
    .send({ agent: agentId, events: [message(text)], ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as string, log: await waitForIdle(t, t.tenant, res.body.id) };
}

const guardrailEntries = (log: LogEntry[]) => log.filter((e) => e.type === "session.guardrail");

describe("input guardrails", { timeout: 60_000 }, () => {
  it("redacts a card number before the provider sees it and stores the redacted message", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, guardrails: [redactCards()] });
    fake.reset();
    const { log } = await run(agent.id, `My card is ${CARD}, please refund order 42.`);
    const sent = lastUserText(fake.requests.at(-1)!.body);
    expect(sent).toBe("My card is [REDACTED:card_number], please refund order 42.");
    expect(JSON.stringify(fake.requests)).not.toContain("4111");
    const stored = log.find((e) => e.type === "user.message");
    expect(stored.content[0].text).toBe(sent);
    const [decision] = guardrailEntries(log);
    expect(decision).toMatchObject({
      guardrail: "input.pii",
      stage: "input",
      check: "pii",
      action: "redact",
      triggered: true,
      originalKept: false,
      targetSeq: stored.seq,
      spans: [{ start: 11, end: 30, kind: "card_number" }],
    });
    expect(JSON.stringify(log)).not.toContain("4111");
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "end_turn" });
  });

  it("redacts messages posted later too (the ingestion path), one decision per message", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, guardrails: [redactCards()] });
    const { id } = await run(agent.id, "hello");
    fake.reset();
    const posted = await t.http
      .post(`${t.tenant.base}/sessions/${id}/events`)
      .set(t.tenant.auth)
      .send({ events: [message(`card ${CARD.replace(/ /g, "-")}`)] });
    expect(posted.status).toBe(202);
    const log = await waitForIdle(t, t.tenant, id, 2);
    expect(lastUserText(fake.requests.at(-1)!.body)).toBe("card [REDACTED:card_number]");
    expect(JSON.stringify(log)).not.toContain("4111");
    expect(guardrailEntries(log)).toHaveLength(1);
  });

  it("keeps the original in the log only when the guardrail says so; the provider still gets the redacted text", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, guardrails: [redactCards({ keepOriginal: true })] });
    fake.reset();
    const { id, log } = await run(agent.id, `Card ${CARD} expires 12/29`);
    expect(lastUserText(fake.requests.at(-1)!.body)).toBe("Card [REDACTED:card_number] expires 12/29");
    expect(log.find((e: LogEntry) => e.type === "user.message").content[0].text).toBe(`Card ${CARD} expires 12/29`);
    expect(guardrailEntries(log)).toMatchObject([
      { action: "redact", originalKept: true, spans: [{ start: 5, end: 24 }] },
    ]);
    // A later turn sends the earlier message redacted again, and the decision is not repeated.
    await t.http
      .post(`${t.tenant.base}/sessions/${id}/events`)
      .set(t.tenant.auth)
      .send({ events: [message("thanks")] });
    const later = await waitForIdle(t, t.tenant, id, 2);
    expect(JSON.stringify(fake.requests.at(-1)!.body)).not.toContain("4111");
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain("Card [REDACTED:card_number] expires 12/29");
    expect(guardrailEntries(later)).toHaveLength(1);
  });

  it("blocks a message with a secret: the turn ends without a model call, and later turns never send it", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: MODEL,
      guardrails: [{ name: "no-secrets", stage: "input", check: { type: "secrets" }, action: "block" }],
    });
    fake.reset();
    const secret = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789";
    const { id, log } = await run(agent.id, `my key is ${secret}`);
    expect(fake.requests).toHaveLength(0);
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "guardrail_blocked" });
    const [decision] = guardrailEntries(log);
    expect(decision).toMatchObject({ guardrail: "no-secrets", action: "block", triggered: true });
    expect(decision.spans[0]).toMatchObject({ kind: "api_key" });
    expect(JSON.stringify(decision)).not.toContain(secret);
    expect((await getSession(t, t.tenant, id)).stopReason).toBe("guardrail_blocked");

    const posted = await t.http
      .post(`${t.tenant.base}/sessions/${id}/events`)
      .set(t.tenant.auth)
      .send({ events: [message("what can you do?")] });
    expect(posted.status).toBe(202);
    await waitForIdle(t, t.tenant, id, 2);
    expect(fake.requests).toHaveLength(1);
    expect(JSON.stringify(fake.requests[0]!.body)).not.toContain(secret);
    expect(lastUserText(fake.requests[0]!.body)).toBe("what can you do?");
  });

  it("flags without changing anything", async () => {
    const agent = await createAgent(t, t.tenant, {
      model: MODEL,
      guardrails: [{ stage: "input", check: { type: "pii", kinds: ["email"] }, action: "flag" }],
    });
    fake.reset();
    const { log } = await run(agent.id, "write to jane.doe@example.com");
    expect(lastUserText(fake.requests.at(-1)!.body)).toBe("write to jane.doe@example.com");
    expect(guardrailEntries(log)).toMatchObject([{ action: "flag", spans: [{ start: 9, end: 29, kind: "email" }] }]);
    expect(log.at(-1).stopReason).toBe("end_turn");
  });

  it("a fork keeps redacting posted messages where they are stored", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, guardrails: [redactCards()] });
    const { id, log } = await run(agent.id, "hello");
    const forked = await t.http
      .post(`${t.tenant.base}/sessions/${id}/fork`)
      .set(t.tenant.auth)
      .send({ atSeq: log.at(-1).seq });
    expect(forked.status, JSON.stringify(forked.body)).toBe(201);
    fake.reset();
    await t.http
      .post(`${t.tenant.base}/sessions/${forked.body.id}/events`)
      .set(t.tenant.auth)
      .send({ events: [message(`card ${CARD}`)] });
    const after = await waitForIdle(t, t.tenant, forked.body.id, 2);
    expect(JSON.stringify(after)).not.toContain("4111");
    expect(lastUserText(fake.requests.at(-1)!.body)).toBe("card [REDACTED:card_number]");
  });

  it("replaces the agent's guardrails with the session's own ([] = none)", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL, guardrails: [redactCards()] });
    fake.reset();
    const { log } = await run(agent.id, `card ${CARD}`, { guardrails: [] });
    expect(lastUserText(fake.requests.at(-1)!.body)).toBe(`card ${CARD}`);
    expect(guardrailEntries(log)).toHaveLength(0);
    const plain = await createAgent(t, t.tenant, { model: MODEL });
    fake.reset();
    const own = await run(plain.id, `card ${CARD}`, { guardrails: [redactCards()] });
    expect(lastUserText(fake.requests.at(-1)!.body)).toBe("card [REDACTED:card_number]");
    expect(own.log.find((e: LogEntry) => e.type === "user.message").content[0].text).toBe(
      "card [REDACTED:card_number]",
    );
  });
});
