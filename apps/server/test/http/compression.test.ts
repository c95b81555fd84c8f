import { readFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleDist } from "../../src/http/console.js";
import { createAgent, message, newSession, postEvents } from "../sessions/helpers.js";
import { openSse } from "../sessions/sse-client.js";
import { startTestApp, type TestApp } from "../support/test-app.js";

let t: TestApp;
let logPath: string;

beforeAll(async () => {
  t = await startTestApp();
  const agent = await createAgent(t, t.tenant);
  const events = Array.from({ length: 40 }, (_, i) => message(`entry ${i}: ${"some words that repeat ".repeat(5)}`));
  const session = await newSession(t, t.tenant, { agent: agent.id, events });
  logPath = `${t.tenant.base}/sessions/${session.id}/events?limit=100`;
});
afterAll(async () => {
  await t?.close();
});

/** A raw GET (fetch would ask for and undo compression itself): the status, headers and the bytes as sent. */
function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${t.url}${path}`, { headers: { ...t.tenant.auth, ...headers }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}

function decode(response: { headers: http.IncomingHttpHeaders; body: Buffer }): string {
  const encoding = response.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(response.body).toString("utf8");
  if (encoding === "gzip") return gunzipSync(response.body).toString("utf8");
  return response.body.toString("utf8");
}

describe("HTTP compression", () => {
  it("compresses a large response with the coding the client prefers, by its q-values", async () => {
    const plain = await get(logPath);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(4096);
    const cases: [string, string | undefined][] = [
      ["br", "br"],
      ["gzip", "gzip"],
      ["gzip, br", "br"],
      ["gzip;q=1, br;q=0.5", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["*", "br"],
      ["identity", undefined],
      ["gzip;q=0, br;q=0", undefined],
      ["compress", undefined],
    ];
    for (const [accept, expected] of cases) {
      const response = await get(logPath, { "Accept-Encoding": accept });
      expect(response.status, accept).toBe(200);
      expect(response.headers["content-encoding"], accept).toBe(expected);
      expect(response.headers.vary, accept).toMatch(/Accept-Encoding/i);
      expect(JSON.parse(decode(response)), accept).toEqual(JSON.parse(plain.body.toString("utf8")));
      if (expected) expect(response.body.length, accept).toBeLessThan(plain.body.length / 3);
    }
  });

  it("sends as is without Accept-Encoding, and leaves small responses alone", async () => {
    const plain = await get(logPath);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const small = await get("/v1/platform/context", { "Accept-Encoding": "br, gzip" });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("never compresses an event stream: entries arrive live for a client that accepts gzip and br", async () => {
    const agent = await createAgent(t, t.tenant);
    const session = await newSession(t, t.tenant, { agent: agent.id, events: [message("first")] });
    const stream = await openSse(`${t.url}${t.tenant.base}/sessions/${session.id}/events/stream`, {
      ...t.tenant.auth,
      "Accept-Encoding": "gzip, br",
    });
    try {
      expect(stream.headers["content-encoding"]).toBeUndefined();
      await stream.waitForFrames(1);
      await postEvents(t, t.tenant, session.id, [message("second")]);
      const frames = await stream.waitForFrames(2);
      expect(frames.map((f) => f.data.content[0].text)).toEqual(["first", "second"]);
    } finally {
      stream.close();
    }
  });

  const dist = consoleDist();
  it.skipIf(!dist)("serves the console's precompressed assets by negotiation", async () => {
    const html = (await get("/console")).body.toString("utf8");
    const script = /src="\/console\/(assets\/index-[\w-]+\.js)"/.exec(html)![1]!;
    const original = readFileSync(join(dist!, script));
    for (const [accept, expected] of [
      ["br, gzip", "br"],
      ["gzip", "gzip"],
      ["br;q=0.5, gzip", "gzip"],
      ["identity", undefined],
    ] as const) {
      const response = await get(`/console/${script}`, { "Accept-Encoding": accept });
      expect(response.status, accept).toBe(200);
      expect(response.headers["content-type"], accept).toMatch(/javascript/);
      expect(response.headers["content-encoding"], accept).toBe(expected);
      expect(response.headers.vary, accept).toMatch(/Accept-Encoding/i);
      expect(response.headers["cache-control"], accept).toContain("immutable");
      expect(decode(response), accept).toBe(original.toString("utf8"));
    }
    expect((await get(`/console/${script}`)).headers["content-encoding"]).toBeUndefined();
  });
});
