import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { expectGapFree, getSession, types, waitForIdle, waitUntil } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { killWorkerProcess, startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";

// The API runs in this process without a worker; the workers are real child processes, the first one killed with
// SIGKILL while the judge call of its grading is open.
const MODEL = "openai-compatible/fake-model";
let t: TestApp;
let fake: FakeOpenAI;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ role: "api", env: { OPENAI_COMPATIBLE_BASE_URL: fake.url } });
});
afterAll(async () => {
  await Promise.all(workers.splice(0).map(stopWorkerProcess));
  await t?.close();
  await fake?.close();
});

async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess(t, { OPENAI_COMPATIBLE_BASE_URL: fake.url, WORKER_LEASE_MS: "2000" });
  workers.push(child);
  return child;
}

const chatCalls = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");

describe("a worker killed during grading", { timeout: 120_000 }, () => {
  it("grades the answer again on resume: one evaluation, the agent's answer not asked for twice", async () => {
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    fake.enqueue({ text: "The answer." }, { hang: true }, { text: JSON.stringify({ score: 1, reason: "right" }) });
    const first = await startWorker();
    const session = await newSession(t, t.tenant, {
      agent: agent.id,
      outcome: { scorers: [{ type: "llm_judge", rubric: "Answers." }] },
      events: [message("question")],
    });
    await waitUntil("the judge call", async () => (chatCalls()[1]?.outcome === "pending" ? true : undefined));
    await killWorkerProcess(first);

    await startWorker();
    const log = await waitForIdle(t, t.tenant, session.id, 1, 30_000);
    expect(types(log)).toEqual([
      "user.message",
      "session.status_running",
      "agent.message",
      "agent.usage",
      "session.outcome_evaluation",
      "session.status_idle",
    ]);
    expectGapFree(log);
    expect(log[4]).toMatchObject({ verdict: "passed", answerSeq: 3, revision: 0, usage: { modelCalls: 1 } });
    expect(chatCalls()).toHaveLength(3);
    expect(chatCalls()[1]!.outcome).toBe("client-closed");
    expect(JSON.stringify(chatCalls()[2]!.body.messages)).toContain("You grade answers");
    expect(await getSession(t, t.tenant, session.id)).toMatchObject({ outcome: { state: "passed" } });
  });
});
