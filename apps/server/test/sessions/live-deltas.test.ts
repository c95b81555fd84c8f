import http from "node:http";
import { AgentPlatform } from "@agent-platform/sdk";
import { describe, expect, it } from "vitest";
import { apiAndWorkers } from "../support/api-and-workers.js";
import { createAgent, message } from "./helpers.js";
import { waitForIdle, waitUntil } from "./loop-helpers.js";
import { openSse } from "./sse-client.js";

// The API runs in this process, the turn in a worker process: deltas cross processes through PostgreSQL.
const world = apiAndWorkers();
const MODEL = "openai-compatible/fake-model";
const REPLY = "The quick brown fox jumps over the lazy dog, again and again.";

describe("live reply deltas", { timeout: 120_000 }, () => {
  it("sends a delta follower the reply as it is written; a follower without deltas sees today's stream", async () => {
    const { t, fake } = world;
    await world.startWorker();
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const created = await t.http.post(`${t.tenant.base}/sessions`).set(t.tenant.auth).send({ agent: agent.id });
    expect(created.status).toBe(201);
    const base = `${t.url}${t.tenant.base}/sessions/${created.body.id}/events/stream`;
    const live = await openSse(`${base}?deltas=true`, t.tenant.auth);
    const plain = await openSse(base, t.tenant.auth);
    try {
      fake.enqueue({ text: REPLY, chunkDelayMs: 20 });
      const posted = await t.http
        .post(`${t.tenant.base}/sessions/${created.body.id}/events`)
        .set(t.tenant.auth)
        .send({ events: [message("tell me")] });
      expect(posted.status).toBe(202);
      const log = await waitForIdle(t, t.tenant, created.body.id);
      await live.waitForFrames(log.length);
      await plain.waitForFrames(log.length);

      // The model was streamed, since a follower asked.
      expect(fake.requests.at(-1)?.body.stream).toBe(true);
      const reply = live.frames.find((frame) => frame.event === "agent.message")!;
      const replyIndex = live.frames.indexOf(reply);
      const deltas = live.unnumbered.filter((frame) => frame.event === "agent.delta");
      expect(deltas.length).toBeGreaterThan(1);
      for (const frame of deltas) {
        expect(frame.after).toBeLessThanOrEqual(replyIndex);
        expect(frame.data).toMatchObject({ type: "agent.delta", kind: "text", call: 1 });
        expect(frame.data.afterSeq).toBeLessThan(reply.data.seq);
        expect(frame.data.seq).toBeUndefined();
      }
      expect(deltas.map((frame) => frame.data.delta).join("")).toBe(reply.data.content[0].text);
      expect(reply.data.content[0].text).toBe(REPLY);
      // Log entries are the same frames on both streams; the plain follower got no delta.
      expect(live.frames).toEqual(plain.frames);
      expect(plain.unnumbered).toEqual([]);
    } finally {
      live.close();
      plain.close();
    }
  });

  it("does not stream the model call when nobody asked for deltas", async () => {
    const { t, fake } = world;
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const created = await t.http.post(`${t.tenant.base}/sessions`).set(t.tenant.auth).send({ agent: agent.id });
    const plain = await openSse(`${t.url}${t.tenant.base}/sessions/${created.body.id}/events/stream`, t.tenant.auth);
    try {
      fake.enqueue({ text: REPLY, chunkDelayMs: 5 });
      await t.http
        .post(`${t.tenant.base}/sessions/${created.body.id}/events`)
        .set(t.tenant.auth)
        .send({ events: [message("no deltas please")] });
      await waitForIdle(t, t.tenant, created.body.id);
      const call = fake.requests.find((request) => JSON.stringify(request.body).includes("no deltas please"));
      expect(call?.body.stream).not.toBe(true);
      expect(plain.unnumbered).toEqual([]);
    } finally {
      plain.close();
    }
  });

  it("SDK: streamReply's accumulated text equals the final agent.message, seen as it was written", async () => {
    const { t, fake } = world;
    const platform = new AgentPlatform({ baseUrl: t.url, apiKey: t.tenant.key });
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const session = await platform.sessions.create({ agent: agent.id });
    fake.enqueue({ text: REPLY, chunkDelayMs: 20 });
    const snapshots: string[] = [];
    const reply = platform.sessions.streamReply(session.id, {
      afterSeq: 0,
      onText: (_delta, snapshot) => snapshots.push(snapshot),
    });
    // A second delta follower, opened after the helper's and awaited: once it is connected, so is the helper's.
    const live = await openSse(
      `${t.url}${t.tenant.base}/sessions/${session.id}/events/stream?deltas=true`,
      t.tenant.auth,
    );
    await platform.sessions.send(session.id, "tell me");
    const result = await reply;
    live.close();
    expect(result.idle.stopReason).toBe("end_turn");
    expect(result.message?.content).toEqual([{ type: "text", text: REPLY }]);
    expect(result.text).toBe(REPLY);
    expect(snapshots.length).toBeGreaterThan(1);
    expect(snapshots.at(-1)).toBe(REPLY);
  });

  it("a stalled delta follower slows neither the turn nor another follower, and still gets every entry", async () => {
    const { t, fake } = world;
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const created = await t.http.post(`${t.tenant.base}/sessions`).set(t.tenant.auth).send({ agent: agent.id });
    const url = `${t.url}${t.tenant.base}/sessions/${created.body.id}/events/stream?deltas=true`;
    // A follower that reads nothing until the turn is over.
    const stalled = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(url, { headers: t.tenant.auth, agent: false }, (res) => {
        res.pause();
        resolve(res);
      });
      req.on("error", reject);
    });
    const live = await openSse(url, t.tenant.auth);
    try {
      const long = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(" ");
      fake.enqueue({ text: long });
      await t.http
        .post(`${t.tenant.base}/sessions/${created.body.id}/events`)
        .set(t.tenant.auth)
        .send({ events: [message("a long one")] });
      const log = await waitForIdle(t, t.tenant, created.body.id);
      await live.waitForFrames(log.length);
      const text = live.unnumbered.map((frame) => frame.data.delta).join("");
      expect(text).toBe(long);
      // The stalled follower, read at last, has every entry (deltas may have been dropped for it, entries never).
      let raw = "";
      stalled.setEncoding("utf8");
      stalled.on("data", (chunk: string) => {
        raw += chunk;
      });
      stalled.resume();
      await waitUntil("the stalled follower's entries", async () =>
        raw.includes(`id: ${log.at(-1).seq}\n`) ? true : undefined,
      );
      for (const entry of log) expect(raw).toContain(`id: ${entry.seq}\nevent: ${entry.type}\n`);
    } finally {
      live.close();
      stalled.destroy();
    }
  });

  it("refuses a deltas value that is not a boolean", async () => {
    const { t } = world;
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const created = await t.http.post(`${t.tenant.base}/sessions`).set(t.tenant.auth).send({ agent: agent.id });
    const res = await t.http
      .get(`${t.tenant.base}/sessions/${created.body.id}/events/stream?deltas=yes`)
      .set(t.tenant.auth);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("request.invalid");
  });
  it("keeps what a streamed reply had written when a user.interrupt stops it, with the call's usage", async () => {
    const { t, fake } = world;
    const agent = await createAgent(t, t.tenant, { model: MODEL });
    const created = await t.http.post(`${t.tenant.base}/sessions`).set(t.tenant.auth).send({ agent: agent.id });
    const id = created.body.id;
    const live = await openSse(`${t.url}${t.tenant.base}/sessions/${id}/events/stream?deltas=true`, t.tenant.auth);
    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    try {
      fake.enqueue({ text: long, chunkDelayMs: 100 });
      await t.http
        .post(`${t.tenant.base}/sessions/${id}/events`)
        .set(t.tenant.auth)
        .send({ events: [message("go")] });
      await waitUntil("a few deltas", async () =>
        live.unnumbered.filter((frame) => frame.event === "agent.delta").length >= 3 ? true : undefined,
      );
      const interrupted = await t.http
        .post(`${t.tenant.base}/sessions/${id}/events`)
        .set(t.tenant.auth)
        .send({ events: [{ type: "user.interrupt" }] });
      expect(interrupted.status).toBe(202);
      const log = await waitForIdle(t, t.tenant, id);
      expect(log.at(-1)).toMatchObject({ type: "session.status_idle", stopReason: "interrupted" });
      const cut = log.find((entry) => entry.type === "agent.message");
      expect(cut).toMatchObject({ cutShort: true });
      const text: string = cut.content[0].text;
      expect(text.length).toBeGreaterThan(0);
      expect(long.startsWith(text)).toBe(true);
      expect(text.length).toBeLessThan(long.length);
      // The provider reported no usage before the stop: the call's tokens are estimated, and counted.
      const usage = log.find((entry) => entry.type === "agent.usage");
      expect(usage).toMatchObject({ estimated: true, outputTokens: Math.ceil(text.length / 4) });
      expect(usage.inputTokens).toBeGreaterThan(0);
      const record = await t.http.get(`${t.tenant.base}/sessions/${id}`).set(t.tenant.auth);
      expect(record.body.usage.outputTokens).toBe(usage.outputTokens);

      // The next turn's conversation includes the partial answer.
      fake.enqueue({ text: "ok" });
      await t.http
        .post(`${t.tenant.base}/sessions/${id}/events`)
        .set(t.tenant.auth)
        .send({ events: [message("again")] });
      await waitUntil("the next turn", async () => {
        const page = await t.http.get(`${t.tenant.base}/sessions/${id}/events`).set(t.tenant.auth);
        const entries = page.body.data as { type: string; stopReason?: string }[];
        return entries.filter((e) => e.type === "session.status_idle").length === 2 ? true : undefined;
      });
      const next = fake.requests.find((request) => JSON.stringify(request.body).includes('"again"'));
      const messages = (next?.body.messages ?? []) as { role: string; content: unknown }[];
      const assistant = messages.find((m) => m.role === "assistant");
      expect(assistant?.content).toBe(text);
    } finally {
      live.close();
    }
  });
});
