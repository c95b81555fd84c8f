import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tenant } from "../support/factories.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { createAgent, message, newSession, postEvents, readLog } from "./helpers.js";
import { waitUntil } from "./loop-helpers.js";
import { openSse, type SseConnection } from "./sse-client.js";

// Many followers of one session in one process: each gets every entry exactly once and in order, a follower that
// reads nothing holds nobody up, and the process reads each batch of new entries once, not once per follower.
let t: TestApp;
let tenant: Tenant;
let agentId: string;

beforeAll(async () => {
  t = await startTestApp({ env: { PROMETHEUS_METRICS: "true" } });
  tenant = t.tenant;
  agentId = (await createAgent(t, tenant)).id;
});
afterAll(async () => {
  await t?.close();
});

/** `agent_platform.session_stream.reads` by source, from `GET /metrics`. */
async function streamReads(): Promise<Record<string, number>> {
  const scrape = await t.http.get("/metrics");
  const reads: Record<string, number> = {};
  for (const match of scrape.text.matchAll(
    /^agent_platform_session_stream_reads\w*\{[^}]*source="(\w+)"[^}]*\} (\d+)/gm,
  )) {
    reads[match[1]!] = Number(match[2]);
  }
  return reads;
}
const total = (reads: Record<string, number>) => Object.values(reads).reduce((a, b) => a + b, 0);

/**
 * A follower that reads nothing until `resume`: a raw socket in paused mode stops reading from the kernel once its
 * small buffer is full, so the server's writes back up in the kernel, then in the server's own socket buffer.
 */
function stalledFollower(url: string): Promise<{ resume(): { text: () => string }; destroy(): void }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      const auth = Object.entries(tenant.auth)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("");
      socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n${auth}\r\n`);
      resolve({
        resume() {
          let raw = "";
          socket.setEncoding("latin1");
          socket.on("data", (chunk: string) => {
            raw += chunk;
          });
          return { text: () => raw };
        },
        destroy: () => socket.destroy(),
      });
    });
    socket.on("error", reject);
  });
}

/** The `id:` lines of a raw stream, in order. */
const ids = (raw: string) => [...raw.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

describe("SSE fan-out", () => {
  it("200 followers of one session get every entry once and in order; one read per batch, not per follower", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("zero")] });
    const url = `${t.url}${tenant.base}/sessions/${s.id}/events/stream`;
    const stalled = await stalledFollower(url);
    const followers: SseConnection[] = [];
    try {
      for (let i = 0; i < 200; i += 20) {
        followers.push(...(await Promise.all(Array.from({ length: 20 }, () => openSse(url, tenant.auth)))));
      }
      await Promise.all(followers.map((c) => c.waitForFrames(1)));
      const before = await streamReads();
      const posts = 5;
      for (let i = 1; i <= posts; i++) {
        await postEvents(t, tenant, s.id, [message(`batch ${i} a`), message(`batch ${i} b`)]);
      }
      const log = await readLog(t, tenant, s.id);
      expect(log).toHaveLength(1 + posts * 2);
      await Promise.all(followers.map((c) => c.waitForFrames(log.length, 15_000)));
      for (const c of followers) {
        expect(c.frames.map((f) => Number(f.id))).toEqual(log.map((e) => e.seq));
        expect(c.frames.at(-1)!.data).toEqual(log.at(-1));
      }
      const reads = total(await streamReads()) - total(before);
      // One read per committed batch (a notification during a read may ask for one more), whatever the followers.
      expect(reads).toBeGreaterThanOrEqual(1);
      expect(reads).toBeLessThanOrEqual(posts * 2);

      const late = stalled.resume();
      await waitUntil("the stalled follower's entries", async () =>
        ids(late.text()).length >= log.length ? true : undefined,
      );
      expect(ids(late.text())).toEqual(log.map((e) => e.seq));
    } finally {
      for (const c of followers) c.close();
      stalled.destroy();
    }
  });

  it("a follower whose buffers are full misses nothing and holds up no other follower", async () => {
    const s = await newSession(t, tenant, { agent: agentId });
    const url = `${t.url}${tenant.base}/sessions/${s.id}/events/stream`;
    const stalled = await stalledFollower(url);
    const followers = await Promise.all(Array.from({ length: 5 }, () => openSse(url, tenant.auth)));
    try {
      // About 16 MB, well past what a paused socket's buffers take on loopback (the send buffer grows to 4 MB).
      const big = "x".repeat(200_000);
      for (let i = 0; i < 80; i++)
        expect((await postEvents(t, tenant, s.id, [message(`${i} ${big}`)])).status).toBe(202);
      const log = await readLog(t, tenant, s.id);
      await Promise.all(followers.map((c) => c.waitForFrames(log.length, 20_000)));
      for (const c of followers) expect(c.frames.map((f) => Number(f.id))).toEqual(log.map((e) => e.seq));
      // It fell behind: once resumed, it caught up on its own from the log.
      const late = stalled.resume();
      await waitUntil("the stalled follower's entries", async () =>
        ids(late.text()).length >= log.length ? true : undefined,
      );
      expect(ids(late.text())).toEqual(log.map((e) => e.seq));
      expect((await streamReads()).catch_up).toBeGreaterThanOrEqual(1);
    } finally {
      for (const c of followers) c.close();
      stalled.destroy();
    }
  });

  it("followers joining a live feed at other positions (an old Last-Event-ID, afterSeq past the head) get exactly their entries", async () => {
    const s = await newSession(t, tenant, { agent: agentId, events: [message("one"), message("two")] });
    const url = `${t.url}${tenant.base}/sessions/${s.id}/events/stream`;
    const first = await openSse(url, tenant.auth);
    const opened: SseConnection[] = [first];
    try {
      await first.waitForFrames(2);
      for (let i = 3; i <= 6; i++) await postEvents(t, tenant, s.id, [message(`m${i}`)]);
      await first.waitForFrames(6);
      // Joins the feed at 6 after reading 3..6 itself; another waits for entries after 8, past the head.
      const resumed = await openSse(url, { ...tenant.auth, "Last-Event-ID": "2" });
      const ahead = await openSse(`${url}?afterSeq=8`, tenant.auth);
      opened.push(resumed, ahead);
      for (let i = 7; i <= 10; i++) await postEvents(t, tenant, s.id, [message(`m${i}`)]);
      const log = await readLog(t, tenant, s.id);
      expect(log).toHaveLength(10);
      expect((await first.waitForFrames(10)).map((f) => Number(f.id))).toEqual(log.map((e) => e.seq));
      expect((await resumed.waitForFrames(8)).map((f) => Number(f.id))).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
      expect((await ahead.waitForFrames(2)).map((f) => Number(f.id))).toEqual([9, 10]);
      await postEvents(t, tenant, s.id, [message("m11")]);
      await first.waitForFrames(11);
      await resumed.waitForFrames(9);
      await ahead.waitForFrames(3);
      for (const c of opened) expect(c.frames.map((f) => Number(f.id)).at(-1)).toBe(11);
      expect(resumed.frames).toHaveLength(9);
      expect(ahead.frames).toHaveLength(3);
    } finally {
      for (const c of opened) c.close();
    }
  });
});
