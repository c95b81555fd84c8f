import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { startPlatform } from "../../src/platform-process.js";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { type LogEntry, waitForIdle, waitUntil } from "../sessions/loop-helpers.js";
import { openSse } from "../sessions/sse-client.js";
import { apiAndWorkers } from "../support/api-and-workers.js";
import { stopWorkerProcess } from "../support/worker-process.js";

// Two API processes (this test's app and a second one on the same database) and two worker processes.
const world = apiAndWorkers();

async function secondApi() {
  const config = world.t.platform.ctx.config;
  const platform = await startPlatform(
    loadConfig({
      DATABASE_URL: config.databaseUrl,
      SECRETS_KEY: config.secretsKey,
      DATA_DIR: mkdtempSync(join(tmpdir(), "ap-api-b-")),
      PORT: "0",
      ROLE: "api",
      LOG_LEVEL: "silent",
      OPENAI_COMPATIBLE_BASE_URL: world.fake.url,
    }),
  );
  return { platform, http: supertest.agent(platform.url!) };
}

const MODEL = "openai-compatible/fake-model";

describe("scale-out: two APIs, two workers, one database", { timeout: 180_000 }, () => {
  it("runs every turn once whichever API takes it, and followers on either API see every entry", async () => {
    const { t, fake } = world;
    const b = await secondApi();
    const workers: ChildProcess[] = [];
    try {
      workers.push(...(await Promise.all([world.startWorker(), world.startWorker()])));
      fake.respondWith((request) => ({
        delayMs: 50,
        // biome-ignore lint/suspicious/noExplicitAny: chat messages as received
        text: `echo: ${(request.body.messages as any[]).at(-1)?.content}`,
      }));
      const agent = await createAgent(t, t.tenant, { model: MODEL });
      const apis = [t.http, b.http];
      // Sessions created on both APIs, each followed from the other one.
      const sessions = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const res = await apis[i % 2]!.post(`${t.tenant.base}/sessions`).set(t.tenant.auth).send({ agent: agent.id });
          expect(res.status).toBe(201);
          const followerUrl = i % 2 === 0 ? b.platform.url! : t.url;
          const stream = await openSse(
            `${followerUrl}${t.tenant.base}/sessions/${res.body.id}/events/stream`,
            t.tenant.auth,
          );
          const posted = await apis[(i + 1) % 2]!.post(`${t.tenant.base}/sessions/${res.body.id}/events`)
            .set(t.tenant.auth)
            .send({ events: [message(`task ${i}`)] });
          expect(posted.status).toBe(202);
          return { id: res.body.id as string, stream };
        }),
      );
      for (const session of sessions) {
        const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
        expect(log.filter((e: LogEntry) => e.type === "agent.message")).toHaveLength(1);
        expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "end_turn" });
        const frames = await session.stream.waitForFrames(log.length, 30_000);
        expect(frames.map((f) => Number(f.id))).toEqual(log.map((e: LogEntry) => e.seq));
        session.stream.close();
      }
      // One model call per turn: no turn ran twice.
      expect(fake.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(sessions.length);
    } finally {
      await b.platform.close();
      // The next test starts workers of its own and must know which one runs its turn.
      await Promise.all(workers.map(stopWorkerProcess));
    }
  });

  it("hands a turn in progress to the other worker when its worker stops", async () => {
    const { t, fake } = world;
    fake.reset();
    const workers = await Promise.all([
      world.startWorker({ WORKER_DRAIN_MS: "100" }),
      world.startWorker({ WORKER_DRAIN_MS: "100" }),
    ]);
    let calls = 0;
    fake.respondWith(() => (++calls === 1 ? { text: "too slow", delayMs: 60_000 } : { text: "Done." }));
    const agent = await createAgent(t, t.tenant, { model: MODEL, tools: ["artifact_write"] });
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("work")] });
    const owner = await waitUntil("the turn to be claimed", async () => {
      const { rows } = await t.platform.ctx.db.pool.query<{ leaseOwner: string | null }>(
        `SELECT "leaseOwner" FROM jobs WHERE "kind" = 'session.turn' AND "key" = $1`,
        [session.id],
      );
      return rows[0]?.leaseOwner ?? undefined;
    });
    await waitUntil("the model call", async () => (calls >= 1 ? true : undefined));
    const running = workers.find((w) => owner.includes(`:${w.pid}:`));
    expect(running).toBeDefined();
    running!.kill("SIGTERM");
    const log = await waitForIdle(t, t.tenant, session.id, 1, 60_000);
    expect(log.find((e: LogEntry) => e.type === "agent.message")?.content).toEqual([{ type: "text", text: "Done." }]);
    expect(log.filter((e: LogEntry) => e.type === "agent.message")).toHaveLength(1);
    expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "end_turn" });
    expect(calls).toBe(2);
  });
});
