import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDataset } from "../experiments/helpers.js";
import { createAgent, expectError, expectInvalid, message, newSession, postEvents } from "../sessions/helpers.js";
import { waitForIdle } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

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

const fromSession = (datasetId: string, body: Record<string, unknown>, tenant = t.tenant) =>
  t.http.post(`${tenant.base}/datasets/${datasetId}/cases/from-session`).set(tenant.auth).send(body);

/** Two finished turns: user.message at seq 1 and 6; answers "Paris is in Spain." and "About 2 million." */
async function twoTurnSession() {
  const agent = await createAgent(t, t.tenant, { model: "openai-compatible/fake-model" });
  fake.enqueue({ text: "Paris is in Spain." }, { text: "About 2 million." });
  const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("Where is Paris?")] });
  await waitForIdle(t, t.tenant, session.id);
  await postEvents(t, t.tenant, session.id, [message("How many people live there?")]);
  await waitForIdle(t, t.tenant, session.id, 2);
  return session.id;
}

describe("a dataset case from a session's turn", () => {
  it("takes the user message as input, the answer as expected, and links back", async () => {
    const sessionId = await twoTurnSession();
    const datasetId = await createDataset(t, t.tenant, [{ input: "existing" }]);
    const res = await fromSession(datasetId, { sessionId, seq: 1, metadata: { reason: "wrong country" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      datasetId,
      position: 2,
      input: "Where is Paris?",
      expected: "Paris is in Spain.",
      conversation: null,
      expectedTools: null,
      metadata: { reason: "wrong country", sourceSessionId: sessionId, sourceSeq: "1" },
    });
    const listed = await t.http.get(`${t.tenant.base}/datasets/${datasetId}/cases`).set(t.tenant.auth);
    expect(listed.body.data[1]).toEqual(res.body);
  });

  it("with the conversation before the turn, and expected edited before it is added", async () => {
    const sessionId = await twoTurnSession();
    const datasetId = await createDataset(t, t.tenant, [{ input: "existing" }]);
    const res = await fromSession(datasetId, {
      sessionId,
      seq: 6,
      includeConversation: true,
      expected: "About 2.1 million people live in Paris, France.",
      expectedTools: [{ name: "lookup", arguments: { city: "Paris" } }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      input: "How many people live there?",
      expected: "About 2.1 million people live in Paris, France.",
      conversation: [
        { role: "user", text: "Where is Paris?" },
        { role: "assistant", text: "Paris is in Spain." },
      ],
      expectedTools: [{ name: "lookup", arguments: { city: "Paris" } }],
      metadata: { sourceSessionId: sessionId, sourceSeq: "6" },
    });
  });

  it("refuses a seq that is not a user.message, another project's session, and writes nothing then", async () => {
    const sessionId = await twoTurnSession();
    const datasetId = await createDataset(t, t.tenant, [{ input: "existing" }]);
    expectInvalid(await fromSession(datasetId, { sessionId, seq: 3 }), ["body.seq"]);
    expectInvalid(await fromSession(datasetId, { sessionId, seq: 99 }), ["body.seq"]);
    const other = await t.newTenant();
    const theirs = await createDataset(t, other, [{ input: "x" }]);
    expectError(await fromSession(theirs, { sessionId, seq: 1 }, other), 404, "session.not_found");
    expectError(await fromSession(datasetId, { sessionId, seq: 1 }, other), 404, "session.not_found");
    const dataset = await t.http.get(`${t.tenant.base}/datasets/${datasetId}`).set(t.tenant.auth);
    expect(dataset.body.caseCount).toBe(1);
  });
});

describe("editing a case after it was added", () => {
  it("changes expected and expectedTools only, null removes; unknown case or dataset is 404", async () => {
    const sessionId = await twoTurnSession();
    const datasetId = await createDataset(t, t.tenant, [{ input: "existing" }]);
    const added = await fromSession(datasetId, { sessionId, seq: 1 });
    const patch = (body: Record<string, unknown>, caseId = added.body.id, tenant = t.tenant, ds = datasetId) =>
      t.http.patch(`${tenant.base}/datasets/${ds}/cases/${caseId}`).set(tenant.auth).send(body);
    const fixed = await patch({ expected: "Paris is in France.", expectedTools: [{ name: "lookup" }] });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body).toEqual({
      ...added.body,
      expected: "Paris is in France.",
      expectedTools: [{ name: "lookup" }],
    });
    const cleared = await patch({ expectedTools: null });
    expect(cleared.body).toMatchObject({ expected: "Paris is in France.", expectedTools: null });
    expectInvalid(await patch({ input: "changed" }), ["body"]);
    expectError(await patch({ expected: "x" }, "dscase_missing"), 404, "dataset.case_not_found");
    expectError(await patch({ expected: "x" }, added.body.id, t.tenant, "ds_missing"), 404, "dataset.not_found");
    const other = await t.newTenant();
    expectError(await patch({ expected: "x" }, added.body.id, other), 404, "dataset.not_found");
  });
});
