import http from "node:http";
import { describe, expect, it } from "vitest";
import { createAgent, message, newSession } from "../sessions/helpers.js";
import { startTestApp } from "../support/test-app.js";

/** Opens an SSE stream and resolves `ended` with what arrived once the server ends the response cleanly. */
function openStream(url: string, auth: Record<string, string>) {
  let text = "";
  let opened: () => void;
  const ready = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const ended = new Promise<string>((resolve, reject) => {
    http
      .get(url, { headers: { ...auth, accept: "text/event-stream" } }, (res) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          if (text.includes("event: user.message")) opened();
        });
        res.on("end", () => resolve(text));
        res.on("aborted", () => reject(new Error("the stream was cut, not ended")));
        res.on("error", reject);
      })
      .on("error", reject);
  });
  return { ready, ended };
}

describe("graceful shutdown", () => {
  it("ends event streams cleanly at the last entry sent, and stops listening", async () => {
    const t = await startTestApp();
    try {
      const agent = await createAgent(t, t.tenant);
      const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("before the restart")] });
      const stream = openStream(`${t.url}${t.tenant.base}/sessions/${session.id}/events/stream`, t.tenant.auth);
      await stream.ready;
      await t.platform.close();
      const text = await stream.ended;
      // Every frame is whole: a client resumes with Last-Event-ID = the last id it read.
      expect(text.trimEnd().endsWith("}")).toBe(true);
      expect([...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).toEqual([1]);
      await expect(fetch(`${t.url}/healthz`)).rejects.toThrow();
    } finally {
      await t.close().catch(() => {});
    }
  });
});
