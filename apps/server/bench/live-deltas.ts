// `pnpm bench` phase: time to the first live delta at a follower (`?deltas=true`) against the fake model's time to its
// first token, and the end-to-end turn with that follower next to one without.
import http from "node:http";
import type { FakeOpenAI } from "../test/support/fake-openai.js";
import { message, percentile } from "./support.js";

const TURNS = 20;
/** The fake waits this long before its first token, then this long between the reply's words. */
const FIRST_TOKEN_MS = 20;
const CHUNK_MS = 2;
const REPLY = "one two three four five six seven eight nine ten";

type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** Opens a follower and calls `onFrame` with each frame's `event:` name. */
function follow(url: string, key: string, onFrame: (event: string) => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Authorization: `Bearer ${key}`, Accept: "text/event-stream" } }, (res) => {
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let cut = buffer.indexOf("\n\n");
        while (cut >= 0) {
          const event = /^event: (.*)$/m.exec(buffer.slice(0, cut))?.[1];
          if (event) onFrame(event);
          buffer = buffer.slice(cut + 2);
          cut = buffer.indexOf("\n\n");
        }
      });
      resolve(() => req.destroy());
    });
    req.on("error", reject);
  });
}

export async function liveDeltaRows(
  go: { url: string; key: string },
  base: string,
  api: Api,
  fake: FakeOpenAI,
  agentId: string,
): Promise<[string, string][]> {
  const measure = async (deltas: boolean) => {
    const firstDelta: number[] = [];
    const e2e: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      const session = (await api<{ id: string }>("POST", `${base}/sessions`, { agent: agentId })).id;
      let t0 = 0;
      let first = 0;
      let idle!: () => void;
      const done = new Promise<void>((resolve) => {
        idle = resolve;
      });
      const query = deltas ? "?deltas=true" : "";
      const close = await follow(`${go.url}${base}/sessions/${session}/events/stream${query}`, go.key, (event) => {
        if (event === "agent.delta" && first === 0) first = performance.now() - t0;
        if (event === "session.status_idle") idle();
      });
      fake.enqueue({ text: REPLY, delayMs: FIRST_TOKEN_MS, chunkDelayMs: CHUNK_MS });
      t0 = performance.now();
      await api("POST", `${base}/sessions/${session}/events`, { events: [message(`delta turn ${i}`)] });
      await done;
      e2e.push(performance.now() - t0);
      if (deltas) firstDelta.push(first);
      close();
    }
    return { firstDelta, e2e };
  };
  const plain = await measure(false);
  const live = await measure(true);
  const words = REPLY.split(" ").length;
  return [
    [
      `Time to first delta at a follower, median / p95 (${TURNS} turns; the fake's first token after ${FIRST_TOKEN_MS} ms)`,
      `${percentile(live.firstDelta, 50).toFixed(1)} ms / ${percentile(live.firstDelta, 95).toFixed(1)} ms`,
    ],
    [
      `  turn with one delta follower vs one without, median (${words} words, ${CHUNK_MS} ms apart)`,
      `${percentile(live.e2e, 50).toFixed(1)} ms vs ${percentile(plain.e2e, 50).toFixed(1)} ms`,
    ],
  ];
}
