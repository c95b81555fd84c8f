import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, message, newSession, postEvents } from "../sessions/helpers.js";
import { waitForIdle, waitUntil } from "../sessions/loop-helpers.js";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { startWorkerProcess, stopWorkerProcess } from "../support/worker-process.js";
import { sandboxDir } from "./sandbox-dir.js";

// Workers are real processes, each with its own sandbox folder (as on two machines); the first is killed with SIGKILL.
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
  const child = await startWorkerProcess(t, {
    OPENAI_COMPATIBLE_BASE_URL: fake.url,
    WORKER_LEASE_MS: "2000",
    SANDBOX_DIR: sandboxDir(),
  });
  workers.push(child);
  return child;
}

const call = (name: string, input: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: input }] });

describe("session workspaces across workers", { timeout: 120_000 }, () => {
  it("restores the workspace on another worker after the first is killed mid-turn", async () => {
    const first = await startWorker();
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["bash", "file_write"] });
    fake.enqueue(call("file_write", { path: "state/progress.txt", content: "step 1 done" }), { text: "Saved." });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("save progress")] });
    await waitForIdle(t, t.tenant, session.id, 1, 60_000);

    // The second turn's model call hangs; the worker dies during it.
    fake.enqueue({ text: "never finished", chunkDelayMs: 1_000 }, call("bash", { command: "cat state/progress.txt" }), {
      text: "Resumed.",
    });
    await postEvents(t, t.tenant, session.id, [message("carry on")]);
    const chat = () => fake.requests.filter((r) => r.path === "/v1/chat/completions");
    await waitUntil("the hanging model call", async () => (chat().at(-1)?.outcome === "pending" ? true : undefined));
    await new Promise<void>((resolve) => {
      first.once("exit", () => resolve());
      first.kill("SIGKILL");
    });

    await startWorker();
    const log = await waitForIdle(t, t.tenant, session.id, 2, 60_000);
    const last = log.filter((e) => e.type === "agent.tool_result").at(-1);
    expect(last.isError).toBe(false);
    expect(JSON.stringify(last.content)).toContain("step 1 done");
  });
});
