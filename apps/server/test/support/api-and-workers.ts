import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "./fake-openai.js";
import { startTestApp, type TestApp } from "./test-app.js";
import { startWorkerProcess, stopWorkerProcess } from "./worker-process.js";

export interface ApiAndWorkers {
  /** The API (`ROLE=api`, no worker) in this process, set once `beforeAll` has run. */
  t: TestApp;
  /** The fake OpenAI-compatible model every worker calls. */
  fake: FakeOpenAI;
  /** A real `ROLE=worker` child process on the test database, stopped after the file's tests. */
  startWorker(env?: Record<string, string>): Promise<ChildProcess>;
}

/** Registers the file's hooks: an API-only test app with a fake model, and worker processes the tests start (and kill). */
export function apiAndWorkers(): ApiAndWorkers {
  const workers: ChildProcess[] = [];
  const world = {
    async startWorker(env: Record<string, string> = {}) {
      const child = await startWorkerProcess(world.t, { OPENAI_COMPATIBLE_BASE_URL: world.fake.url, ...env });
      workers.push(child);
      return child;
    },
  } as ApiAndWorkers;
  beforeAll(async () => {
    world.fake = await startFakeOpenAI();
    world.t = await startTestApp({ role: "api", env: { OPENAI_COMPATIBLE_BASE_URL: world.fake.url } });
  });
  afterAll(async () => {
    await Promise.all(workers.splice(0).map(stopWorkerProcess));
    await world.t?.close();
    await world.fake?.close();
  });
  return world;
}
